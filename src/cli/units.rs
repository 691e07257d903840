//! Parsers for flag values: `X=n` set sizes, durations, byte sizes.

use std::time::Duration;

/// Parses `--set X=n`.
pub fn parse_set_size(text: &str) -> Result<(String, u32), String> {
    let (name, size) = text
        .split_once('=')
        .ok_or_else(|| format!("expected NAME=SIZE, found `{text}`"))?;
    let name = name.trim();
    if name.is_empty() || !name.chars().all(|c| c.is_alphanumeric() || c == '_') {
        return Err(format!("expected a set name before `=`, found `{name}`"));
    }
    let size: u32 = size
        .trim()
        .parse()
        .map_err(|_| format!("expected a positive integer after `=`, found `{size}`"))?;
    if size == 0 {
        return Err("a deferred set must have at least one element".to_string());
    }
    Ok((name.to_string(), size))
}

/// The longest duration a flag accepts: 100 years, far beyond any run
/// (and far below what `Duration` and `Instant` arithmetic can hold).
const LONGEST: Duration = Duration::from_secs(100 * 365 * 24 * 3600);

/// Parses a duration such as `90s`, `10m`, `1h30m` or a plain number of
/// seconds, up to 100 years.
pub fn parse_duration(text: &str) -> Result<Duration, String> {
    let duration = match text.trim().parse::<f64>() {
        Ok(secs) if !secs.is_finite() || secs < 0.0 => {
            return Err(format!(
                "expected a duration such as 30s or 5m, found `{text}`"
            ));
        }
        Ok(secs) if secs > LONGEST.as_secs_f64() => LONGEST + Duration::from_secs(1),
        Ok(secs) => Duration::from_secs_f64(secs),
        Err(_) => humantime::parse_duration(text.trim())
            .map_err(|e| format!("expected a duration such as 30s or 5m: {e}"))?,
    };
    if duration > LONGEST {
        return Err(format!(
            "`{text}` is longer than the longest accepted duration, 100 years"
        ));
    }
    Ok(duration)
}

/// Parses a byte size such as `512MiB`, `4GB` or a plain number of bytes.
pub fn parse_bytes(text: &str) -> Result<u64, String> {
    text.trim()
        .parse::<bytesize::ByteSize>()
        .map(|b| b.as_u64())
        .map_err(|e| format!("expected a size such as 512MiB or 4GB: {e}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn set_sizes() {
        assert_eq!(parse_set_size("PID=3"), Ok(("PID".to_string(), 3)));
        assert!(parse_set_size("PID").is_err());
        assert!(parse_set_size("PID=0").is_err());
        assert!(parse_set_size("PID=x").is_err());
        assert!(parse_set_size("=3").is_err());
    }

    #[test]
    fn durations_and_sizes() {
        assert_eq!(parse_duration("90"), Ok(Duration::from_secs(90)));
        assert_eq!(parse_duration("2m"), Ok(Duration::from_secs(120)));
        assert!(parse_duration("soon").is_err());
        // Regression: 1e20 seconds overflowed `Duration` and panicked.
        assert!(parse_duration("1e20").is_err());
        assert!(parse_duration("-1").is_err());
        assert!(parse_duration("NaN").is_err());
        assert!(parse_duration("200years").is_err());
        assert_eq!(parse_duration("0.5"), Ok(Duration::from_millis(500)));
        assert_eq!(parse_bytes("1KiB"), Ok(1024));
        assert!(parse_bytes("lots").is_err());
    }
}
