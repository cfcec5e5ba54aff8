//! Loading `.eu` files into documents, with parse errors located as `file:line:col`.

use compiler::text::{Document, parse_document};
use std::path::Path;

/// Reads and parses one `.eu` file.
pub fn load_document(path: &Path) -> Result<Document, String> {
    let text = crate::files::read_text(path)?;
    parse_document(&text).map_err(|e| format!("{}:{e}", path.display()))
}
