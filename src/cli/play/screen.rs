//! The game at the keyboard: a full-screen table redrawn in place ten
//! times a second (line by line, no clearing, so nothing flickers), raw
//! keys for the claim being typed, and the terminal given back as it was
//! on leaving, whatever happens.

use std::io::{self, IsTerminal, Stdout, Write};
use std::time::{Duration, Instant};

use anyhow::{Context, Result};
use crossterm::event::{self, Event as Key, KeyCode, KeyEventKind, KeyModifiers};
use crossterm::{cursor, queue, style, terminal};

use prime_solve::Rules;
use prime_solve::game::{self, Person, Round, STOCK_SHARE, Stage};

use super::{Event, Table, say};
use crate::cli::print;
use crate::cli::term::{Line, edit};

/// Whether both ends are a terminal.
pub(crate) fn possible() -> bool {
    io::stdin().is_terminal() && io::stdout().is_terminal()
}

/// The alternate screen in raw mode, for as long as this lives.
struct Screen {
    out: Stdout,
}

impl Screen {
    fn open() -> Result<Screen> {
        terminal::enable_raw_mode().context("cannot read the keyboard")?;
        let mut screen = Screen { out: io::stdout() };
        super::super::term::ALTERNATE_SCREEN.store(true, std::sync::atomic::Ordering::SeqCst);
        queue!(
            screen.out,
            terminal::EnterAlternateScreen,
            terminal::Clear(terminal::ClearType::All)
        )?;
        screen.out.flush()?;
        Ok(screen)
    }

    /// Draws `lines` from the top, the cursor at the end of the last one.
    /// A line wider than the window is cut with "…" (the last one, a claim
    /// being typed, keeps its end).
    fn draw(&mut self, lines: &[String]) -> io::Result<()> {
        let (width, height) = terminal::size().unwrap_or((80, 24));
        let (width, height) = (usize::from(width.max(10)), usize::from(height.max(3)));
        let mut shown: Vec<&String> = lines.iter().collect();
        if shown.len() > height {
            let last = shown.pop().expect("lines");
            shown.truncate(height - 1);
            shown.push(last);
        }
        let rows = shown.len();
        let shown: Vec<String> = shown
            .iter()
            .enumerate()
            .map(|(row, line)| {
                if row + 1 == rows && line.starts_with("> ") {
                    fit_end(line, width - 1)
                } else {
                    fit(line, width - 1)
                }
            })
            .collect();
        for (row, line) in shown.iter().enumerate() {
            queue!(
                self.out,
                cursor::MoveTo(0, row as u16),
                style::Print(line),
                terminal::Clear(terminal::ClearType::UntilNewLine)
            )?;
        }
        // Below the last line, if the screen goes further (a cursor moved
        // past the bottom would stay on the last line and clear it).
        if shown.len() < height {
            queue!(
                self.out,
                cursor::MoveTo(0, shown.len() as u16),
                terminal::Clear(terminal::ClearType::FromCursorDown)
            )?;
        }
        let last = shown.last().map_or(0, |l| l.chars().count());
        queue!(
            self.out,
            cursor::MoveTo(last as u16, shown.len().saturating_sub(1) as u16)
        )?;
        self.out.flush()
    }

    fn clear(&mut self) -> io::Result<()> {
        queue!(self.out, terminal::Clear(terminal::ClearType::All))?;
        self.out.flush()
    }
}

impl Drop for Screen {
    fn drop(&mut self) {
        let _ = queue!(self.out, terminal::LeaveAlternateScreen, cursor::Show);
        let _ = self.out.flush();
        let _ = terminal::disable_raw_mode();
        super::super::term::ALTERNATE_SCREEN.store(false, std::sync::atomic::Ordering::SeqCst);
    }
}

fn ms(d: Duration) -> u32 {
    d.as_millis().min(u128::from(u32::MAX)) as u32
}

/// `line` in at most `width` characters: as it is if it fits, else cut
/// with "…", after the last whole word where one ends past the middle.
pub(crate) fn fit(line: &str, width: usize) -> String {
    if line.chars().count() <= width {
        return line.to_string();
    }
    let width = width.max(1);
    let kept: String = line.chars().take(width - 1).collect();
    let next = line.chars().nth(width - 1);
    let at_word_end = next.is_some_and(char::is_whitespace);
    let cut = match kept.rfind(' ') {
        Some(i) if !at_word_end && kept[..i].chars().count() > width / 2 => &kept[..i],
        _ => kept.as_str(),
    };
    let cut = cut.trim_end_matches([' ', ',', ';', ':', '(']);
    format!("{cut}…")
}

/// A prompt in at most `width` characters: its start ("> ") and the end of
/// what is typed, after "…".
fn fit_end(line: &str, width: usize) -> String {
    let count = line.chars().count();
    if count <= width || width < 4 {
        return line.chars().take(width).collect();
    }
    let end: String = line.chars().skip(count - (width - 3)).collect();
    format!("> …{end}")
}

/// `text` in lines of at most `width` characters, broken between words,
/// after a comma, colon or full stop where one falls in the second half
/// of the line (the continuation indented); a word wider than that is cut
/// with "…".
pub(crate) fn wrap(text: &str, width: usize) -> Vec<String> {
    let width = width.max(10);
    let mut out = Vec::new();
    for line in text.lines() {
        let mut rest: Vec<char> = line.chars().collect();
        let mut indent = "";
        loop {
            let room = width - indent.len();
            if rest.len() <= room {
                out.push(format!("{indent}{}", rest.iter().collect::<String>()));
                break;
            }
            let spaces: Vec<usize> = (1..=room).filter(|&i| rest[i] == ' ').collect();
            let after_stop = spaces
                .iter()
                .rev()
                .find(|&&i| i > room / 2 && matches!(rest[i - 1], ',' | ';' | ':' | '.'));
            match after_stop.or(spaces.last()) {
                Some(&i) => {
                    out.push(format!("{indent}{}", rest[..i].iter().collect::<String>()));
                    rest.drain(..=i);
                }
                None => {
                    // One word wider than the line.
                    let end = rest.iter().position(|&c| c == ' ').unwrap_or(rest.len());
                    let word: String = rest[..end].iter().collect();
                    out.push(fit(&format!("{indent}{word}"), width));
                    rest.drain(..(end + 1).min(rest.len()));
                    if rest.is_empty() {
                        break;
                    }
                }
            }
            indent = "  ";
        }
    }
    out
}

/// What a key does between combinations or while calling.
enum Act {
    Nothing,
    Quit,
    Line(String),
    Resized,
}

fn key(buffer: &mut String, timeout: Duration) -> Result<Act> {
    if !event::poll(timeout)? {
        return Ok(Act::Nothing);
    }
    Ok(match event::read()? {
        Key::Resize(..) => Act::Resized,
        Key::Key(k) if k.kind != KeyEventKind::Release => {
            let plain_q = k.code == KeyCode::Char('q')
                && buffer.is_empty()
                && !k.modifiers.contains(KeyModifiers::CONTROL);
            if plain_q {
                return Ok(Act::Quit);
            }
            match edit(buffer, k) {
                Some(Line::Quit) => Act::Quit,
                Some(Line::Text(t)) => Act::Line(t),
                _ => Act::Nothing,
            }
        }
        _ => Act::Nothing,
    })
}

/// How many cards each pile (and the stockpile) holds.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Counts {
    piles: Vec<usize>,
    stock: Option<usize>,
}

impl Counts {
    /// The cards in each pile and in the stockpile, those `round` shows
    /// face up on the table left out (a player's card leaves its pile when
    /// it is shown; the stockpile's stays on top of it until it is won).
    fn of(table: &Table, round: &Round) -> Counts {
        let live = &table.live;
        let face_up = round.shown.stock_card().is_some() && live.stage() == Stage::Calling;
        Counts {
            piles: live.piles(),
            stock: live.stock().map(|s| s - usize::from(face_up)),
        }
    }
}

/// A pile's row: its name, the count as the cards were dealt, the cards
/// it shows, and, once they are won or buried, what it holds now.
fn row(name: &str, dealt: usize, now: usize, cards: &str) -> String {
    let held = if dealt == 1 { "card " } else { "cards" };
    let mut row = format!("  {name:<10} {dealt:>2} {held}   {cards}");
    if dealt != now {
        row.push_str(&format!("   → now {now}"));
    }
    row
}

/// What the screen shows under the cards: the calls, the turns before,
/// the prompt.
struct Below<'a> {
    said: &'a [String],
    earlier: &'a [String],
    prompt: &'a str,
}

/// The screen's lines for `round` at `now`; `dealt`, the piles as the
/// cards were shown (the table keeps them so until the next cards).
fn compose(
    table: &Table,
    title: &str,
    round: &Round,
    dealt: &Counts,
    now: u32,
    below: &Below,
) -> Vec<String> {
    let Below {
        said,
        earlier,
        prompt,
    } = below;
    let current = Counts::of(table, round);
    let mut lines = vec![
        title.to_string(),
        format!(
            "turn {}   type a claim and Enter; an empty Enter passes; q or Esc leaves",
            round.turn
        ),
        String::new(),
    ];
    for (seat, name) in table.names.iter().enumerate() {
        let cards: Vec<String> = round.shown.cards_of(seat).map(|c| table.card(c)).collect();
        let card = if cards.is_empty() {
            "out".to_string()
        } else {
            cards.join(" ")
        };
        lines.push(row(name, dealt.piles[seat], current.piles[seat], &card));
    }
    if let Some(then) = dealt.stock {
        let top = round.shown.stock_card().map(|c| table.card(c));
        let now = current.stock.unwrap_or(0);
        lines.push(row("stockpile", then, now, &top.unwrap_or_default()));
    }
    let values: Vec<String> = table
        .values(&round.shown.cards)
        .iter()
        .map(u8::to_string)
        .collect();
    lines.push(String::new());
    lines.push(format!(
        "  counting {}        clock {:.1} s",
        values.join(" "),
        f64::from(now) / 1000.0
    ));
    lines.push(String::new());
    lines.extend(said.iter().flat_map(|s| s.lines().map(str::to_string)));
    if !earlier.is_empty() {
        lines.push(String::new());
        lines.push("  earlier:".into());
        lines.extend(earlier.iter().map(|s| format!("  {}", s.trim_start())));
    }
    lines.push(String::new());
    lines.push(prompt.to_string());
    lines
}

/// Plays at the keyboard until the game ends or the person leaves, then
/// prints the result on the ordinary screen.
/// After a result the next cards come when the person presses Enter, or
/// once `pause` has passed, if given.
pub(crate) fn run(
    table: &mut Table,
    rules: &Rules,
    seed: u64,
    pause: Option<Duration>,
) -> Result<()> {
    // What matters most first: a narrow window cuts the rules' details.
    let title = format!(
        "Prime Time   seed {seed}   you against {}   rules: {} ({})",
        table.names[1..].join(", "),
        rules.name(),
        rules.describe_in(table.style.ascii)
    );
    let mut screen = Screen::open()?;
    let mut earlier: Vec<String> = Vec::new();
    let mut buffer = String::new();
    let over = 'game: loop {
        let dealt_events = table.live.deal();
        if let Some(game::Event::Over(over)) = dealt_events.last() {
            break over.clone();
        }
        let Some(game::Event::Dealt { restocked, .. }) = dealt_events.first() else {
            break table.live.call_off();
        };
        let round = table.live.round().expect("cards dealt").clone();
        let dealt = Counts::of(table, &round);
        // A stockpile used up is made anew as the next cards are dealt:
        // the piles shrink by what each gave to it.
        if *restocked && round.turn > 1 {
            remember(
                &mut earlier,
                format!(
                    "turn {}: a new stockpile: each player gave {STOCK_SHARE} cards to it",
                    round.turn
                ),
            );
        }
        let mut view = View {
            title: &title,
            round: &round,
            dealt: &dealt,
            earlier: &earlier,
        };
        let Some(said) = calling(&mut screen, table, &mut view, &mut buffer)? else {
            break 'game table.live.call_off();
        };
        let round = table.live.round().expect("cards dealt").clone();
        view.round = &round;
        let closed = table.live.closes_at();
        match result(&mut screen, table, &view, &said, closed, &mut buffer, pause)? {
            Next::Quit => break 'game table.live.call_off(),
            Next::Cards => {}
        }
        buffer.clear();
        if let Some(outcome) = said.last() {
            remember(
                &mut earlier,
                format!("turn {}: {}", round.turn, brief(outcome)),
            );
        }
        if let Some(over) = table.live.over() {
            break over.clone();
        }
    };
    let end = table.end_event(&over, "quit");
    drop(screen);
    // On the ordinary screen, broken between words to fit the window.
    let width = terminal::size().map_or(80, |(w, _)| usize::from(w));
    let lines = wrap(&say(&end), width.saturating_sub(1));
    print(&(lines.join("\n") + "\n"))
}

/// Keeps the last five results.
fn remember(earlier: &mut Vec<String>, line: String) {
    earlier.push(line);
    if earlier.len() > 5 {
        earlier.remove(0);
    }
}

/// What the screen shows of a combination besides what is said on it.
struct View<'a> {
    title: &'a str,
    round: &'a Round,
    /// The piles as the cards were shown (the table keeps them so until
    /// the next cards).
    dealt: &'a Counts,
    earlier: &'a [String],
}

/// What comes after a result.
enum Next {
    Cards,
    Quit,
}

/// The cards being called on, until the calls stop counting: what was
/// said on them, the outcome last; `None` if the person leaves. After a
/// pass or a wrong call the person has nothing more to do, so the clock
/// jumps to the close.
fn calling(
    screen: &mut Screen,
    table: &mut Table,
    view: &mut View,
    buffer: &mut String,
) -> Result<Option<Vec<Event>>> {
    let start = Instant::now();
    buffer.clear();
    let mut said: Vec<Event> = Vec::new();
    let turn = view.round.turn;
    loop {
        let now = ms(start.elapsed());
        let events = if !table.live.waiting() && !called_validly(table) {
            table.live.tick(u32::MAX)
        } else {
            table.live.tick(now)
        };
        said.extend(events.iter().filter_map(|e| table.render(e, "quit")));
        if table.live.stage() != Stage::Calling {
            // The game's end is told once the player leaves the table.
            said.retain(|e| !matches!(e, Event::End { .. }));
            return Ok(Some(said));
        }
        let window = f64::from(table.live.setup().timing.override_window_ms) / 1000.0;
        let prompt = if table.live.waiting() {
            format!("> {buffer}")
        } else if buffer.is_empty() {
            format!("  (waiting for the window of {window:.1} s to close)")
        } else {
            // One call a combination: what is typed now is not one.
            format!(
                "  not a claim: you have called; the window of {window:.1} s closes  [{buffer}]"
            )
        };
        let lines: Vec<String> = said.iter().map(say).collect();
        let below = Below {
            said: &lines,
            earlier: view.earlier,
            prompt: &prompt,
        };
        screen.draw(&compose(
            table, view.title, view.round, view.dealt, now, &below,
        ))?;
        match key(buffer, Duration::from_millis(50))? {
            Act::Quit => return Ok(None),
            Act::Resized => screen.clear()?,
            Act::Line(text) if table.live.waiting() => {
                let text = text.trim();
                // Only while the person waits: it is taken (or is too late,
                // and the next tick decides the cards).
                let reply = if text.is_empty() || text.eq_ignore_ascii_case("pass") {
                    table.live.pass(0, turn, now)
                } else {
                    table.live.call(0, turn, now, text)
                };
                let events = reply.unwrap_or_default();
                said.extend(events.iter().filter_map(|e| table.render(e, "quit")));
            }
            _ => {}
        }
    }
}

/// The result stays up until Enter (or the pause). What is typed
/// meanwhile, or was still being typed as the cards closed, is no claim:
/// these cards are done and the next are not shown; the prompt says so,
/// and Enter goes on.
fn result(
    screen: &mut Screen,
    table: &Table,
    view: &View,
    said: &[Event],
    closed: u32,
    buffer: &mut String,
    pause: Option<Duration>,
) -> Result<Next> {
    let lines: Vec<String> = said.iter().map(say).collect();
    let shown_at = Instant::now();
    loop {
        let left = pause.map(|p| p.saturating_sub(shown_at.elapsed()));
        if left.is_some_and(|l| l.is_zero()) {
            return Ok(Next::Cards);
        }
        let prompt = match (buffer.is_empty(), left) {
            (true, None) => "  Enter: next cards   q: leave".to_string(),
            (true, Some(l)) => format!(
                "  Enter: next cards (or in {:.0} s)   q: leave",
                l.as_secs_f64().ceil()
            ),
            (false, _) => format!(
                "  not a claim: these cards are done; Enter shows the next ones  [{}]",
                buffer
            ),
        };
        let below = Below {
            said: &lines,
            earlier: view.earlier,
            prompt: &prompt,
        };
        screen.draw(&compose(
            table, view.title, view.round, view.dealt, closed, &below,
        ))?;
        match key(buffer, Duration::from_millis(50))? {
            Act::Quit => return Ok(Next::Quit),
            Act::Resized => screen.clear()?,
            Act::Line(_) => return Ok(Next::Cards),
            Act::Nothing => {}
        }
    }
}

/// A result in few words, for the list of earlier ones.
fn brief(e: &Event) -> String {
    match e {
        Event::Bury {
            reason: "tie",
            players,
            ..
        } => format!("{} tied: the cards are buried", players.join(" and ")),
        Event::Bury {
            reason: "no prime", ..
        } => "no prime: the cards are buried".into(),
        Event::Bury { .. } => "nobody called: the cards are buried".into(),
        _ => say(e).trim_start().to_string(),
    }
}

fn called_validly(table: &Table) -> bool {
    let person = table.live.round().and_then(|r| r.person(0));
    matches!(person, Some(Person::Called { ruling: Ok(_), .. }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_pile_says_what_it_holds_now_once_its_cards_are_won() {
        assert_eq!(row("you", 17, 17, "9♣"), "  you        17 cards   9♣");
        assert_eq!(
            row("steady 2", 17, 20, "J♦"),
            "  steady 2   17 cards   J♦   → now 20"
        );
        assert_eq!(
            row("stockpile", 9, 8, ""),
            "  stockpile   9 cards      → now 8"
        );
    }

    #[test]
    fn a_line_too_wide_is_cut_after_a_word() {
        assert_eq!(fit("turn 1: you win", 20), "turn 1: you win");
        assert_eq!(fit("the cards are buried now", 20), "the cards are…");
        // No space past the middle: cut at a character, never mid-char.
        assert_eq!(fit("♣♣♣♣♣♣♣♣♣♣♣♣", 5), "♣♣♣♣…");
        assert_eq!(fit("rules: five (face cards", 13), "rules: five…");
        assert_eq!(fit("abc", 1), "…");
    }

    #[test]
    fn a_prompt_keeps_its_end_and_text_wraps_between_words() {
        assert_eq!(fit_end("> 1+2+3+4+5+6", 10), "> …3+4+5+6");
        assert_eq!(fit_end("> 1+2", 10), "> 1+2");
        let lines = wrap("you left the table: you hold the most cards", 20);
        assert_eq!(
            lines,
            ["you left the table:", "  you hold the most", "  cards"]
        );
        assert!(
            wrap(&"x".repeat(30), 12)
                .iter()
                .all(|l| l.chars().count() <= 12)
        );
        // After the comma: the players' names stay whole.
        assert_eq!(
            wrap("Cards held: you 20, casual 1 17, casual 2 17.", 36),
            ["Cards held: you 20, casual 1 17,", "  casual 2 17."]
        );
        assert_eq!(
            wrap("ab xxxxxxxxxxxxxxxx cd", 10),
            ["ab", "  xxxxxxx…", "  cd"]
        );
    }
}
