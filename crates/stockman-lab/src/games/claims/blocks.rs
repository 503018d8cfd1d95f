//! The report's generated blocks: the text between `<!-- begin generated
//! NAME -->` and `<!-- end generated NAME -->`, rewritten from the data.

use crate::Error;

const BEGIN: &str = "<!-- begin generated ";
const END: &str = "<!-- end generated ";

/// Replaces every generated block of `doc` with the block of that name.
/// Returns the new text and the names of the blocks whose text changed.
/// Fails on a block the document names but `blocks` lacks, on a marker
/// without its end, and on a block of `blocks` the document does not hold.
pub fn fill_blocks(doc: &str, blocks: &[(String, String)]) -> Result<(String, Vec<String>), Error> {
    let mut out = String::with_capacity(doc.len());
    let mut changed = Vec::new();
    let mut used = Vec::new();
    let mut rest = doc;
    while let Some(i) = rest.find(BEGIN) {
        let line = i + rest[i..].find('\n').unwrap_or(rest.len() - i);
        let name = rest[i + BEGIN.len()..line]
            .trim()
            .trim_end_matches("-->")
            .trim()
            .to_string();
        let at = doc.len() - rest.len() + i;
        let lineno = doc[..at].lines().count() + 1;
        let Some((_, text)) = blocks.iter().find(|(n, _)| *n == name) else {
            return Err(Error::new(format!("line {lineno}: no generated block named `{name}`")));
        };
        let end_marker = format!("{END}{name} -->");
        let Some(j) = rest[line..].find(&end_marker) else {
            return Err(Error::new(format!(
                "line {lineno}: block `{name}` has no `{end_marker}`"
            )));
        };
        let old = rest[line..line + j].trim_start_matches('\n');
        out.push_str(&rest[..line]);
        out.push('\n');
        out.push_str(text);
        if old != text {
            changed.push(name.clone());
        }
        used.push(name);
        rest = &rest[line + j..];
    }
    out.push_str(rest);
    if let Some((n, _)) = blocks.iter().find(|(n, _)| !used.contains(n)) {
        return Err(Error::new(format!("the document has no generated block `{n}`")));
    }
    Ok((out, changed))
}
