//! The terminal: a line editor with a running clock for the drill, raw
//! mode that is always given back, colour only where it is wanted, and a
//! script of timed replies for tests.

use std::io::{self, IsTerminal, Write};
use std::path::Path;
use std::time::{Duration, Instant};

use anyhow::{Context, Result, bail};
use crossterm::event::{self, Event, KeyCode, KeyEvent, KeyEventKind, KeyModifiers};
use crossterm::{cursor, queue, style, terminal};

/// Whether `play`'s table is on the alternate screen, for a signal that
/// ends the program there ([`restore`]).
pub(crate) static ALTERNATE_SCREEN: std::sync::atomic::AtomicBool =
    std::sync::atomic::AtomicBool::new(false);

/// Puts the terminal back as it was before raw mode (and the alternate
/// screen, if `play` is on it): for a signal that ends the program while
/// a line is being read or the table is up, which no destructor then does
/// (`kill`, a closed ssh session, `timeout`).
pub(crate) fn restore() {
    if raw_mode_on() {
        let mut out = io::stdout();
        if ALTERNATE_SCREEN.load(std::sync::atomic::Ordering::SeqCst) {
            let _ = queue!(out, terminal::LeaveAlternateScreen, cursor::Show);
        }
        if line_kept() {
            let _ = queue!(out, style::Print("\r\n"));
        } else {
            // The line being read is on stderr; the pipe gets nothing.
            let mut err = io::stderr();
            let _ = queue!(
                err,
                cursor::MoveToColumn(0),
                terminal::Clear(terminal::ClearType::UntilNewLine)
            );
            let _ = err.flush();
        }
        let _ = out.flush();
        raw_mode_off();
    }
}

/// Raw mode for as long as this lives; dropping it (also on an error or a
/// panic unwinding) puts the terminal back as it was.
pub(crate) struct RawMode;

impl RawMode {
    pub(crate) fn on() -> io::Result<RawMode> {
        if io::stdout().is_terminal() {
            terminal::enable_raw_mode()?;
        } else {
            raw_keeping_new_lines()?;
        }
        Ok(RawMode)
    }
}

impl Drop for RawMode {
    fn drop(&mut self) {
        raw_mode_off();
    }
}

/// The terminal and its settings from before raw mode, where raw mode
/// keeps new lines ([`raw_keeping_new_lines`]).
static BEFORE_RAW: std::sync::Mutex<Option<(std::fs::File, rustix::termios::Termios)>> =
    std::sync::Mutex::new(None);

/// Raw mode, but a new line on the terminal still returns to the first
/// column. With stdout piped (`practice | tee log`) another program writes
/// the pipe's lines to the terminal while the keyboard is read, and in
/// plain raw mode they step down like stairs; what this program draws
/// there moves the cursor itself, and looks the same either way. Set in one
/// step, so that no line can come between raw mode and the new lines.
fn raw_keeping_new_lines() -> io::Result<()> {
    use rustix::termios::{OptionalActions, OutputModes, tcgetattr, tcsetattr};
    let mut before = BEFORE_RAW
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    if before.is_some() {
        return Ok(());
    }
    let tty = std::fs::OpenOptions::new()
        .read(true)
        .write(true)
        .open("/dev/tty")?;
    let settings = tcgetattr(&tty)?;
    let mut raw = settings.clone();
    raw.make_raw();
    raw.output_modes |= OutputModes::OPOST | OutputModes::ONLCR;
    tcsetattr(&tty, OptionalActions::Now, &raw)?;
    *before = Some((tty, settings));
    Ok(())
}

/// Whether either kind of raw mode is on.
fn raw_mode_on() -> bool {
    terminal::is_raw_mode_enabled().unwrap_or(false)
        || BEFORE_RAW
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .is_some()
}

/// Leaves raw mode, whichever kind is on.
fn raw_mode_off() {
    let _ = terminal::disable_raw_mode();
    let before = BEFORE_RAW
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
        .take();
    if let Some((tty, settings)) = before {
        let _ = rustix::termios::tcsetattr(&tty, rustix::termios::OptionalActions::Now, &settings);
    }
}

/// Whether stdout takes colour: a terminal, and `NO_COLOR` unset or empty.
pub(crate) fn colour() -> bool {
    io::stdout().is_terminal() && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty())
}

/// `text` in green (`good`) or red, when colour is on.
pub(crate) fn paint(text: &str, good: bool, on: bool) -> String {
    if !on {
        return text.to_string();
    }
    let colour = if good {
        style::Color::Green
    } else {
        style::Color::Red
    };
    use style::Stylize;
    text.with(colour).bold().to_string()
}

/// What the player typed.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Line {
    /// A line, Enter pressed (possibly empty).
    Text(String),
    /// The time limit ran out first.
    TimeUp,
    /// Ctrl-C, Ctrl-D on an empty line, or Esc.
    Quit,
}

/// A key as the line editor sees it: what it does to `buffer`, and
/// whether the line is finished.
pub(crate) fn edit(buffer: &mut String, key: KeyEvent) -> Option<Line> {
    if key.kind == KeyEventKind::Release {
        return None;
    }
    let ctrl = key.modifiers.contains(KeyModifiers::CONTROL);
    match key.code {
        KeyCode::Char('c') if ctrl => Some(Line::Quit),
        KeyCode::Char('d') if ctrl && buffer.is_empty() => Some(Line::Quit),
        KeyCode::Char('u') if ctrl => {
            buffer.clear();
            None
        }
        KeyCode::Esc => Some(Line::Quit),
        KeyCode::Enter => Some(Line::Text(std::mem::take(buffer))),
        KeyCode::Backspace => {
            buffer.pop();
            None
        }
        KeyCode::Char(c) if !ctrl && buffer.chars().count() < 200 => {
            buffer.push(c);
            None
        }
        _ => None,
    }
}

/// Throws away what was typed before a new hand is shown (the rest of a
/// claim typed as the time ran out, say), so that it is not read as the
/// first reply to cards not seen yet.
pub(crate) fn discard_typed_ahead() -> Result<()> {
    let _raw = RawMode::on().context("cannot read the keyboard")?;
    while event::poll(Duration::ZERO)? {
        event::read()?;
    }
    Ok(())
}

/// Throws away what is typed for `grace` from now: after the time runs
/// out, the rest of a claim still being typed, which the next hand (shown
/// at once) would otherwise read as its first reply.
/// Gives whether a key that quits (Esc, Ctrl-C, Ctrl-D) came among them.
pub(crate) fn discard_for(grace: Duration) -> Result<bool> {
    let _raw = RawMode::on().context("cannot read the keyboard")?;
    let end = Instant::now() + grace;
    loop {
        let left = end.saturating_duration_since(Instant::now());
        if left.is_zero() {
            return Ok(false);
        }
        if event::poll(left)?
            && let Event::Key(key) = event::read()?
            && matches!(edit(&mut String::new(), key), Some(Line::Quit))
        {
            return Ok(true);
        }
    }
}

/// What fits on one line of `width` columns: `prompt` and as much of the
/// end of `typed` as there is room for, after `…` where the start is cut,
/// one column short of the edge so that the terminal never wraps it (a
/// wrapped line was drawn again one row lower ten times a second).
pub(crate) fn fit_line(prompt: &str, typed: &str, width: u16) -> String {
    let room = usize::from(width.max(2)) - 1;
    let prompt: String = prompt.chars().take(room).collect();
    let left = room - prompt.chars().count();
    let count = typed.chars().count();
    if count <= left {
        return prompt + typed;
    }
    if left == 0 {
        return prompt;
    }
    let tail: String = typed.chars().skip(count - (left - 1)).collect();
    prompt + "…" + &tail
}

/// Reads a line in raw mode, redrawing `prompt(elapsed)` and the text typed
/// so far on the current line ten times a second (its end, where the
/// window is too narrow for all of it), until Enter, a quit key or `limit`
/// after `start`.
pub(crate) fn read_line(
    start: Instant,
    limit: Option<Duration>,
    prompt: &dyn Fn(Duration) -> String,
) -> Result<Line> {
    let _raw = RawMode::on().context("cannot read the keyboard")?;
    // Drawn where the person sees it: on stdout at a terminal; where stdout
    // is piped (`practice | tee log`), on stderr, and cleared after Enter
    // for the caller to write the reply to stdout as a line of its own
    // ([`line_kept`]), so that the pipe gets no clock redrawn ten times a
    // second.
    let kept = line_kept();
    // Buffered, so that each redraw goes out in one write (stderr is not
    // buffered: a pipe's output landing between its pieces garbled them).
    let mut out: Box<dyn Write> = if kept {
        Box::new(io::stdout())
    } else {
        Box::new(io::BufWriter::new(io::stderr()))
    };
    let mut buffer = String::new();
    let line = loop {
        let elapsed = start.elapsed();
        if limit.is_some_and(|l| elapsed >= l) {
            break Line::TimeUp;
        }
        let width = terminal::size().map_or(80, |(w, _)| w);
        queue!(
            out,
            cursor::MoveToColumn(0),
            terminal::Clear(terminal::ClearType::UntilNewLine),
            style::Print(fit_line(&prompt(elapsed), &buffer, width))
        )?;
        out.flush()?;
        if event::poll(Duration::from_millis(100))?
            && let Event::Key(key) = event::read()?
            && let Some(line) = edit(&mut buffer, key)
        {
            break line;
        }
    };
    if kept {
        queue!(out, style::Print("\r\n"))?;
    } else {
        queue!(
            out,
            cursor::MoveToColumn(0),
            terminal::Clear(terminal::ClearType::UntilNewLine)
        )?;
    }
    out.flush()?;
    Ok(line)
}

/// Whether [`read_line`] leaves the line typed on the screen, drawn on
/// stdout (a terminal, or a pipe when stderr is none either, where the
/// person would otherwise type blind); else it is drawn on stderr and the
/// caller writes it out.
pub(crate) fn line_kept() -> bool {
    io::stdout().is_terminal() || !io::stderr().is_terminal()
}

/// One scripted reply: typed `ms` milliseconds after the cards were shown.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Scripted {
    pub(crate) ms: u64,
    /// `None` for `pass`.
    pub(crate) claim: Option<String>,
}

/// The longest script read: far more replies than a drill or game has.
const MAX_SCRIPT: u64 = 16 << 20;

/// Reads a script: one `MS CLAIM` or `MS pass` a line; blank lines and
/// lines starting with `#` are skipped.
pub(crate) fn read_script(path: &Path) -> Result<Vec<Scripted>> {
    let text = super::args::read_capped(path, MAX_SCRIPT)
        .with_context(|| format!("cannot read the script {}", path.display()))?;
    parse_script(&text).with_context(|| format!("in the script {}", path.display()))
}

pub(crate) fn parse_script(text: &str) -> Result<Vec<Scripted>> {
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let (ms, rest) = line.split_once(char::is_whitespace).unwrap_or((line, ""));
        let Ok(ms) = ms.parse::<u64>() else {
            bail!(
                "line {}: `{ms}` is not a time: write `MS CLAIM` or `MS pass`, MS in milliseconds",
                i + 1
            );
        };
        let rest = rest.trim();
        if rest.is_empty() {
            bail!(
                "line {}: no claim after {ms}: write `MS CLAIM` or `MS pass`",
                i + 1
            );
        }
        out.push(Scripted {
            ms: ms.min(u64::from(u32::MAX)),
            claim: (!rest.eq_ignore_ascii_case("pass")).then(|| rest.to_string()),
        });
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scripts() {
        let s = parse_script("# a game\n1500 6*4/8\n\n900 pass\n").unwrap();
        assert_eq!(
            s,
            [
                Scripted {
                    ms: 1500,
                    claim: Some("6*4/8".into())
                },
                Scripted {
                    ms: 900,
                    claim: None
                }
            ]
        );
        assert!(parse_script("soon 4+5").is_err());
        assert!(parse_script("100").is_err());
        assert!(parse_script("-5 3+4").is_err());
    }

    #[test]
    fn the_editor() {
        let key = |c| KeyEvent::new(c, KeyModifiers::NONE);
        let mut b = String::new();
        assert_eq!(edit(&mut b, key(KeyCode::Char('7'))), None);
        assert_eq!(edit(&mut b, key(KeyCode::Char('+'))), None);
        assert_eq!(edit(&mut b, key(KeyCode::Backspace)), None);
        assert_eq!(
            edit(&mut b, key(KeyCode::Enter)),
            Some(Line::Text("7".into()))
        );
        assert_eq!(
            edit(
                &mut b,
                KeyEvent::new(KeyCode::Char('c'), KeyModifiers::CONTROL)
            ),
            Some(Line::Quit)
        );
    }

    #[test]
    fn a_line_never_reaches_the_edge() {
        assert_eq!(fit_line("  1.0 s  > ", "6*4/8", 80), "  1.0 s  > 6*4/8");
        // 20 columns: 19 drawn, the start of the claim cut.
        let line = fit_line("  1.0 s  > ", "1+2+3+4+5+6+7+8", 20);
        assert_eq!(line, "  1.0 s  > …5+6+7+8");
        assert_eq!(line.chars().count(), 19);
        // Just fits, and one more.
        assert_eq!(fit_line("> ", "12345", 8), "> 12345");
        assert_eq!(fit_line("> ", "123456", 8), "> …3456");
        // Narrower than the prompt: the prompt, cut.
        assert_eq!(fit_line("  1.0 s  > ", "6*4/8", 5), "  1.");
        assert_eq!(fit_line("  1.0 s  > ", "", 0), " ");
        for width in 0..40 {
            for typed in ["", "9", "10×6+7", &"1+".repeat(60)] {
                let line = fit_line("  12.3 s  > ", typed, width);
                assert!(line.chars().count() < usize::from(width.max(2)));
            }
        }
    }
}
