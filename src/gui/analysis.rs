//! The analysis: an engine thinking without end on the position shown, its lines sent to the
//! pages, until it is stopped.

use super::api::AnalysisEvent;
use super::hub::{Hub, sse};
use crate::arbiter::engine::{EngineProc, EngineSpec};
use crate::arbiter::movedata::InfoLine;
use crate::rules::VariantSpec;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// The position command for the game shown after `ply` moves.
pub fn position_command(variant: &VariantSpec, start: Option<&str>, moves: &[String]) -> String {
    let mut s = match start {
        None => "position startpos".to_string(),
        Some(p) => format!("position {} {}", variant.keyword, p),
    };
    if !moves.is_empty() {
        s.push_str(" moves ");
        s.push_str(&moves.join(" "));
    }
    s
}

/// The analysis engine's loop: `go infinite` on one position until stopped.
pub fn analyse(
    hub: Arc<Hub>,
    spec: EngineSpec,
    variant: &'static str,
    position: String,
    ply: usize,
    stop: Arc<AtomicBool>,
) {
    let event = |info: Option<InfoLine>, error: Option<String>, stopped: bool| AnalysisEvent {
        ply,
        engine: info.as_ref().map(|_| spec.name.clone()),
        info,
        error,
        stopped,
    };
    let tell = |what: AnalysisEvent| hub.broadcast(sse("analysis", &what));
    let mut proc = match EngineProc::start(&spec, variant, Duration::from_secs(10)) {
        Ok(p) => p,
        Err((_, e)) => return tell(event(None, Some(e), false)),
    };
    if proc.send(&position).and_then(|_| proc.send("go infinite")).is_err() {
        return tell(event(None, Some(format!("{} exited", spec.name)), false));
    }
    while !stop.load(Ordering::SeqCst) {
        match proc.next_line(Instant::now() + Duration::from_millis(50)) {
            Ok(Some(line)) => {
                if let Some(info) = InfoLine::parse(&line).filter(InfoLine::has_depth) {
                    tell(event(Some(info), None, false));
                } else if line.starts_with("bestmove") {
                    // A position with no move to search ends at once.
                    break;
                }
            }
            Ok(None) => {}
            Err(_) => return tell(event(None, Some(format!("{} exited", spec.name)), false)),
        }
    }
    let _ = proc.send("stop");
    let _ = proc.wait_for(Instant::now() + Duration::from_secs(2), |l| l.starts_with("bestmove"));
    tell(event(None, None, true));
}
