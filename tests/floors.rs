//! The crate's shape, counted from its `use` lines by `tools/floors.py`: no import from a lower
//! floor to a higher one, and no circle between files of different folders
//! (docs/architecture.md names the floors).

mod common;

use common::peers::{PYTHON, peer};
use std::process::Command;

#[test]
fn no_floor_imports_from_above_and_no_folders_import_each_other() {
    let Some(python) = peer(&PYTHON) else { return };
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tools/floors.py");
    let out = Command::new(python).arg(script).output().expect("tools/floors.py runs");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "tools/floors.py:\n{text}{}", String::from_utf8_lossy(&out.stderr));
    assert!(text.contains("0 imports from a lower floor up"), "{text}");
    assert!(text.contains("0 circles between files of different rooms"), "{text}");
}
