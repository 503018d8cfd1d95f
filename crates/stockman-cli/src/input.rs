//! Reading trees from files and specs, with errors that name the place.

use anyhow::{anyhow, bail, Context, Result};
use std::path::Path;
use stockman::{ExplicitTree, RandomSpec, RandomTree, Role};

/// Reads and parses a tree file, its root's role the one it declares or
/// `--root` ([`ExplicitTree::parse_file`]); errors carry `FILE:LINE:COLUMN`.
pub fn read_tree(path: &Path, root: Option<Role>) -> Result<ExplicitTree> {
    let text = read_text(path)?;
    ExplicitTree::parse_file(&text, root).map_err(|e| placed(path, e))
}

/// A tree file's parse error as `FILE:LINE:COLUMN: what`.
pub fn placed(path: &Path, e: stockman::ParseError) -> anyhow::Error {
    anyhow!("{}:{}:{}: {}", path.display(), e.line, e.column, e.kind)
}

/// Reads a tree file's text: a regular file of UTF-8 (errors name the place).
pub fn read_text(path: &Path) -> Result<String> {
    // Devices and pipes could be read forever (`/dev/zero`): only regular files.
    match std::fs::metadata(path) {
        Ok(m) if m.is_dir() => bail!("cannot read tree file {}: it is a directory", path.display()),
        Ok(m) if !m.is_file() => bail!("cannot read tree file {}: not a regular file", path.display()),
        _ => {}
    }
    let bytes = std::fs::read(path).map_err(|e| anyhow!("cannot read tree file {}: {e}", path.display()))?;
    let text = String::from_utf8(bytes).map_err(|e| {
        let at = e.utf8_error().valid_up_to();
        // The place of the first bad byte, counted like the parser counts.
        let good = std::str::from_utf8(&e.as_bytes()[..at]).unwrap_or_default();
        let line = good.matches('\n').count() + 1;
        let column = good.rsplit('\n').next().unwrap_or_default().chars().count() + 1;
        anyhow!(
            "{}:{line}:{column}: not UTF-8 text (invalid byte 0x{:02X} at byte offset {at})",
            path.display(),
            e.as_bytes()[at]
        )
    })?;
    Ok(text)
}

/// Parses a random-tree spec, applying `--root` (which must agree with the
/// spec's own `root=`, if it has one).
pub fn random_tree(spec: &str, root: Option<Role>) -> Result<RandomTree> {
    let s = RandomSpec::parse_with_root(spec, root).with_context(|| format!("in --random `{spec}`"))?;
    Ok(RandomTree::new(s))
}
