//! Reading a model file's text, the same for every front end.

use std::path::Path;

/// The text of the model file `path`. A file that is not UTF-8 is read as
/// Latin-1, as older models (French and German comments among them) are
/// written: every byte is a character of Latin-1, so the text reads the
/// same and positions stay exact to the character. A warning names the
/// first byte that is not UTF-8. The error is rendered, `error: ...\n`.
pub fn read_model_text(path: &Path) -> Result<String, String> {
    let bytes = std::fs::read(path)
        .map_err(|e| format!("error: cannot read `{}`: {e}\n", path.display()))?;
    Ok(match String::from_utf8(bytes) {
        Ok(text) => text,
        Err(e) => {
            let at = e.utf8_error().valid_up_to();
            tracing::warn!(
                "{}: not valid UTF-8 (byte {at}); read as Latin-1",
                path.display()
            );
            latin1(e.as_bytes())
        }
    })
}

/// `bytes` read as Latin-1.
fn latin1(bytes: &[u8]) -> String {
    bytes.iter().map(|&b| char::from(b)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn latin1_text_is_read_character_for_character() {
        let dir = std::env::temp_dir().join(format!("orbit-source-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("m.mch");
        std::fs::write(&path, b"/* \xe9t\xe9 */ MACHINE M END").unwrap();
        let text = read_model_text(&path).unwrap();
        assert_eq!(text, "/* \u{e9}t\u{e9} */ MACHINE M END");
        std::fs::write(&path, "/* été */".as_bytes()).unwrap();
        assert_eq!(read_model_text(&path).unwrap(), "/* été */");
        let missing = read_model_text(&dir.join("none.mch")).unwrap_err();
        assert!(missing.starts_with("error: cannot read"), "{missing}");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
