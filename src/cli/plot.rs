//! The speedup plot of `orbit bench` (plotters, PNG).
//!
//! Text needs a TrueType font: the plot uses the first of a few common
//! system fonts (DejaVu Sans, Liberation Sans, ...). Without one, the plot
//! is drawn without labels and a note says so.

use super::bench::Row;
use plotters::prelude::*;
use std::path::Path;

const FONT_CANDIDATES: &[&str] = &[
    "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
    "/usr/share/fonts/TTF/DejaVuSans.ttf",
    "/usr/share/fonts/dejavu/DejaVuSans.ttf",
    "/usr/share/fonts/truetype/liberation/LiberationSans-Regular.ttf",
    "/System/Library/Fonts/Supplemental/Arial.ttf",
];

/// Registers a system font as "sans-serif" once; whether one was found.
fn font_available() -> bool {
    static FOUND: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *FOUND.get_or_init(|| {
        FONT_CANDIDATES.iter().any(|path| {
            std::fs::read(path).ok().is_some_and(|bytes| {
                let bytes: &'static [u8] = Box::leak(bytes.into_boxed_slice());
                plotters::style::register_font("sans-serif", FontStyle::Normal, bytes).is_ok()
            })
        })
    })
}

/// Medians shorter than this are too short to time (timer resolution,
/// process start-up): they get a warning instead of a point.
pub const SHORTEST_TIMED_SECONDS: f64 = 0.05;

/// Draws measured speedup (and the ideal, linear speedup) against threads,
/// with integer thread ticks and `title` above; rows whose median is under
/// [`SHORTEST_TIMED_SECONDS`] are left out (the caller warns about them).
pub fn plot_speedup(path: &Path, rows: &[Row], title: &str) -> Result<(), String> {
    let labels = font_available();
    if !labels {
        eprintln!(
            "note: no TrueType font found (e.g. package fonts-dejavu-core); the plot has no labels"
        );
    }
    let max_threads = rows.iter().map(|r| r.threads).max().unwrap_or(1).max(2);
    let base = rows.first().map_or(1, |r| r.threads) as f64;
    let max_speedup = rows
        .iter()
        .map(|r| r.speedup)
        .fold(max_threads as f64 / base, f64::max)
        * 1.1;
    let root = BitMapBackend::new(path, (800, 600)).into_drawing_area();
    root.fill(&WHITE).map_err(|e| e.to_string())?;
    let mut builder = ChartBuilder::on(&root);
    builder.margin(20);
    if labels {
        builder
            .caption(title, ("sans-serif", 20))
            .x_label_area_size(40)
            .y_label_area_size(50);
    }
    let mut chart = builder
        .build_cartesian_2d(0u64..max_threads + 1, 0f64..max_speedup)
        .map_err(|e| e.to_string())?;
    let mut mesh = chart.configure_mesh();
    if labels {
        // Integer ticks only: one per thread count up to 16, fewer beyond.
        mesh.x_desc("threads")
            .y_desc("speedup")
            .x_labels((max_threads as usize + 2).min(18));
    } else {
        mesh.disable_x_axis().disable_y_axis();
    }
    mesh.draw().map_err(|e| e.to_string())?;
    let ideal_points: Vec<(u64, f64)> = rows
        .iter()
        .map(|r| (r.threads, r.threads as f64 / base))
        .collect();
    let ideal_style = BLUE.mix(0.4);
    let series = chart
        .draw_series(LineSeries::new(ideal_points, ideal_style))
        .map_err(|e| e.to_string())?;
    if labels {
        series
            .label("ideal")
            .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], ideal_style));
    }
    let measured: Vec<(u64, f64)> = rows
        .iter()
        .filter(|r| r.wall >= SHORTEST_TIMED_SECONDS)
        .map(|r| (r.threads, r.speedup))
        .collect();
    let series = chart
        .draw_series(LineSeries::new(measured.clone(), RED.stroke_width(2)))
        .map_err(|e| e.to_string())?;
    if labels {
        series
            .label("measured")
            .legend(|(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], RED));
    }
    chart
        .draw_series(
            measured
                .into_iter()
                .map(|p| Circle::new(p, 4, RED.filled())),
        )
        .map_err(|e| e.to_string())?;
    if labels {
        chart
            .configure_series_labels()
            .background_style(WHITE.mix(0.8))
            .border_style(BLACK)
            .draw()
            .map_err(|e| e.to_string())?;
    }
    root.present().map_err(|e| e.to_string())
}
