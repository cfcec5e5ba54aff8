//! Progress display. On a terminal: a live status redrawn in place (elapsed, execs/s,
//! valid %, failures, buckets, one line per worker). Otherwise (a log file, CI): one plain
//! line every few seconds, never a `\r` or an escape sequence. Deciding what to show
//! (`status_lines`, `plain_line`) and printing it (`Display`) are apart.

use std::io::{IsTerminal, Write};
use std::time::{Duration, Instant};

/// What the display shows, taken from the campaign's state.
#[derive(Clone, Debug, Default)]
pub struct Snapshot {
    /// Seconds over all sessions.
    pub elapsed: f64,
    pub execs: u64,
    /// Executions per second in this session.
    pub rate: f64,
    pub valid_percent: f64,
    pub failures: u64,
    pub buckets: u64,
    /// Failures waiting for a reduction.
    pub reducing: usize,
    /// Per worker: executions in all sessions and per second in this session.
    pub workers: Vec<(u64, f64)>,
    /// Distinct semantic features reached (at the last checkpoint).
    pub features: u64,
    /// Corpus entries (at the last checkpoint), with feedback.
    pub corpus: Option<u64>,
}

/// The one-line summary both displays start with.
fn headline(s: &Snapshot) -> String {
    let reducing = if s.reducing > 0 {
        format!("  reducing {}", s.reducing)
    } else {
        String::new()
    };
    let corpus = s
        .corpus
        .map(|c| format!("  corpus {c}"))
        .unwrap_or_default();
    format!(
        "{:>6.0}s  execs {:>8}  {:>6.0}/s  valid {:>5.1}%  failures {}  buckets {}  features {}{corpus}{reducing}",
        s.elapsed, s.execs, s.rate, s.valid_percent, s.failures, s.buckets, s.features
    )
}

/// The terminal status: the headline, then one line per worker.
pub fn status_lines(s: &Snapshot) -> Vec<String> {
    let mut out = vec![headline(s)];
    for (w, (execs, rate)) in s.workers.iter().enumerate() {
        out.push(format!("  worker {w:>2}  execs {execs:>8}  {rate:>6.0}/s"));
    }
    out
}

/// The line written every few seconds when stderr is not a terminal.
pub fn plain_line(s: &Snapshot) -> String {
    let per_worker: Vec<String> = s.workers.iter().map(|(e, _)| e.to_string()).collect();
    format!("{}  per worker {}", headline(s), per_worker.join(","))
}

/// Where progress goes (stderr) and how.
pub struct Display {
    terminal: bool,
    every: Duration,
    last: Option<Instant>,
    /// Status lines currently on screen (terminal only), to redraw over.
    drawn: usize,
}

impl Display {
    /// A live display when stderr is a terminal and `CI` is unset; else plain lines every
    /// `every`.
    pub fn new(every: Duration) -> Display {
        Display {
            terminal: std::io::stderr().is_terminal() && std::env::var_os("CI").is_none(),
            every,
            last: Some(Instant::now()),
            drawn: 0,
        }
    }

    fn clear(&mut self, err: &mut impl Write) {
        if self.drawn > 0 {
            let _ = write!(err, "\x1b[{}F\x1b[J", self.drawn);
            self.drawn = 0;
        }
    }

    /// Whether it is time to show the state again (twice a second on a terminal, every
    /// `every` otherwise); taking the answer counts as showing it.
    pub fn due(&mut self) -> bool {
        let every = if self.terminal {
            Duration::from_millis(500)
        } else {
            self.every
        };
        if self.last.is_some_and(|t| t.elapsed() < every) {
            return false;
        }
        self.last = Some(Instant::now());
        true
    }

    /// Shows the state now.
    pub fn show(&mut self, s: &Snapshot) {
        let mut err = std::io::stderr().lock();
        if self.terminal {
            self.clear(&mut err);
            let lines = status_lines(s);
            for l in &lines {
                let _ = writeln!(err, "{l}");
            }
            self.drawn = lines.len();
        } else {
            let _ = writeln!(err, "{}", plain_line(s));
        }
    }

    /// Prints a line of its own (a new bucket), above the live status.
    pub fn note(&mut self, line: &str) {
        let mut err = std::io::stderr().lock();
        self.clear(&mut err);
        let _ = writeln!(err, "{line}");
        if self.terminal {
            // Redraw the status below the note at once.
            self.last = None;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn snapshot() -> Snapshot {
        Snapshot {
            elapsed: 12.0,
            execs: 1500,
            rate: 125.0,
            valid_percent: 98.5,
            failures: 3,
            buckets: 2,
            reducing: 0,
            workers: vec![(800, 66.0), (700, 59.0)],
            features: 640,
            corpus: Some(31),
        }
    }

    #[test]
    fn plain_lines_carry_everything_on_one_line_without_control_characters() {
        let line = plain_line(&snapshot());
        for part in [
            "12s",
            "execs     1500",
            "125/s",
            "valid  98.5%",
            "failures 3",
            "buckets 2",
            "features 640  corpus 31",
            "per worker 800,700",
        ] {
            assert!(line.contains(part), "{part} not in {line}");
        }
        assert!(!line.chars().any(|c| c.is_control()), "{line:?}");
    }

    #[test]
    fn the_terminal_status_has_a_line_per_worker() {
        let lines = status_lines(&snapshot());
        assert_eq!(lines.len(), 3);
        assert!(
            lines[2].contains("worker  1") && lines[2].contains("700"),
            "{}",
            lines[2]
        );
    }
}
