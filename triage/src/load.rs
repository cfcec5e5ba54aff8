//! Loading `.eu` files into documents, with parse errors located as `file:line:col`.

use crate::error::{Error, Result};
use compiler::text::{Document, parse_document};
use std::path::Path;

/// Reads and parses one `.eu` file.
pub fn load_document(path: &Path) -> Result<Document> {
    let text = crate::files::read_text(path)?;
    parse_document(&text).map_err(|e| Error::Malformed(format!("{}:{e}", path.display())))
}

/// Loads a program, retargeted to `device` if one is given.
pub fn load_program(path: &Path, device: Option<compiler::Device>) -> Result<compiler::Program> {
    let mut p = load_document(path)?.program;
    if let Some(d) = device {
        p.device = d;
    }
    Ok(p)
}
