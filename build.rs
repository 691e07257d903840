//! Links the release binary with `scripts/hot-code.ld`, which places the code
//! that runs execute together at the start of the text (see
//! `scripts/hot-code.py`): the kernel maps code in 64 KiB windows around each
//! page a run touches, so grouped code is resident memory saved on every run.
//! Only for the `orbit` binary of release builds on x86-64 Linux, whose linkers
//! (LLD, Rust's default there, and GNU ld) both read the script's `INSERT`.
//! The link also writes its map (`orbit.map` in this script's `OUT_DIR`),
//! from which `scripts/hot-code.py` learns which input section holds the
//! read-only data a run reads.

fn main() {
    println!("cargo:rerun-if-changed=scripts/hot-code.ld");
    println!("cargo:rerun-if-changed=build.rs");
    let var = |name: &str| std::env::var(name).unwrap_or_default();
    let release = var("PROFILE") == "release";
    let linux_x86_64 =
        var("CARGO_CFG_TARGET_OS") == "linux" && var("CARGO_CFG_TARGET_ARCH") == "x86_64";
    let script = std::path::Path::new(&var("CARGO_MANIFEST_DIR")).join("scripts/hot-code.ld");
    if release && linux_x86_64 && script.exists() {
        println!("cargo:rustc-link-arg-bin=orbit=-Wl,-T,{}", script.display());
        let map = std::path::Path::new(&var("OUT_DIR")).join("orbit.map");
        println!("cargo:rustc-link-arg-bin=orbit=-Wl,-Map={}", map.display());
    }
}
