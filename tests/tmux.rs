//! `practice` and `play` as a person meets them: run in a real terminal
//! (tmux), keys sent, the screen read back. Without tmux each test fails
//! and says to install it (`apt-get install tmux`), unless
//! `PRIME_SOLVE_SKIP` names `tmux` (`common::require`).

mod common;

use std::process::Command;
use std::time::{Duration, Instant};

/// A tmux server of our own (its own socket), killed when dropped.
struct Tmux {
    socket: String,
}

impl Tmux {
    /// A session running `command`, or `None` where tmux is missing and
    /// `PRIME_SOLVE_SKIP` lets its tests pass (`common::require`).
    fn start(name: &str, command: &str) -> Option<Tmux> {
        if !common::require(common::Tool::Tmux) {
            return None;
        }
        let tmux = Tmux {
            socket: format!("prime-solve-test-{name}-{}", std::process::id()),
        };
        // The shell stays after the program, so its last screen can be read
        // and the terminal's state checked.
        let script = format!(
            "{command}; echo EXIT=$?; echo MODE $(stty -a | grep -o -- '-\\?icanon\\|-\\?echo '); sleep 60"
        );
        let ok = tmux
            .run(&[
                "new-session",
                "-d",
                "-s",
                "t",
                "-x",
                "110",
                "-y",
                "40",
                &script,
            ])
            .status
            .success();
        assert!(ok, "tmux did not start");
        Some(tmux)
    }

    fn run(&self, args: &[&str]) -> std::process::Output {
        Command::new("tmux")
            .args(["-L", &self.socket])
            .args(args)
            .env("NO_COLOR", "1")
            .output()
            .unwrap()
    }

    fn screen(&self) -> String {
        String::from_utf8_lossy(&self.run(&["capture-pane", "-p", "-J", "-t", "t"]).stdout)
            .into_owned()
    }

    fn keys(&self, keys: &[&str]) {
        let mut args = vec!["send-keys", "-t", "t"];
        args.extend(keys);
        self.run(&args);
    }

    /// Waits for the program to end, and fails unless it exited 0 and left
    /// the terminal in its ordinary (cooked, echoing) mode; gives the last
    /// screen.
    fn ended(&self) -> String {
        let screen = self.wait_for("MODE ");
        assert!(screen.contains("EXIT=0"), "{screen}");
        assert!(screen.contains("MODE icanon echo"), "{screen}");
        screen
    }

    /// Waits until the screen shows `text`; fails with the screen if not.
    fn wait_for(&self, text: &str) -> String {
        let start = Instant::now();
        loop {
            let screen = self.screen();
            if screen.contains(text) {
                return screen;
            }
            assert!(
                start.elapsed() < Duration::from_secs(20),
                "the screen never showed `{text}`:\n{screen}"
            );
            std::thread::sleep(Duration::from_millis(100));
        }
    }
}

impl Tmux {
    /// As [`Tmux::start`], in a window of `cols` × `rows`.
    fn sized(name: &str, command: &str, cols: u16, rows: u16) -> Option<Tmux> {
        let t = Tmux::start(name, command)?;
        t.run(&[
            "resize-window",
            "-t",
            "t",
            "-x",
            &cols.to_string(),
            "-y",
            &rows.to_string(),
        ]);
        Some(t)
    }
}

impl Drop for Tmux {
    fn drop(&mut self) {
        self.run(&["kill-server"]);
    }
}

fn binary() -> &'static str {
    env!("CARGO_BIN_EXE_prime-solve")
}

#[test]
fn practice_in_a_terminal() {
    let command = format!("{} practice --seed 4 --rounds 2 --time-limit 60", binary());
    let Some(t) = Tmux::start("practice", &command) else {
        return;
    };
    t.wait_for("Hand 1 of 2:  6♣ 10♣ 7♦    (counting 6 10 7)");
    // The clock runs on the prompt line while nothing is typed.
    let first = t.wait_for(" s  >");
    std::thread::sleep(Duration::from_millis(400));
    assert_ne!(first, t.screen(), "the clock does not move");
    t.keys(&["?", "Enter"]);
    t.wait_for("hint: this hand makes 3");
    t.keys(&["10*6+7", "Enter"]);
    t.wait_for("valid: 10*6+7 = 67, a prime, in");
    t.wait_for("  best call:     67 = 10 × 6 + 7");
    t.wait_for("Hand 2 of 2:  7♥ 2♣ J♦");
    t.keys(&["q"]);
    t.keys(&["Enter"]);
    let screen = t.ended();
    assert!(screen.contains("Summary: 1 of 1 hand correct"), "{screen}");
}

#[test]
fn keys_typed_as_the_time_runs_out_do_not_answer_the_next_hand() {
    // A claim still being typed when the time ran out was read as the
    // first reply to the next hand, shown at once.
    let command = format!("{} practice --seed 4 --rounds 2 --time-limit 1.5", binary());
    let Some(t) = Tmux::start("late", &command) else {
        return;
    };
    t.wait_for("Hand 1 of 2:");
    t.wait_for("time is up");
    t.keys(&["10*6+7", "Enter"]);
    let screen = t.ended();
    // Both hands ran out of time; the late claim answered neither.
    assert_eq!(screen.matches("time is up").count(), 2, "{screen}");
    assert!(!screen.contains("10*6+7"), "{screen}");
    assert!(screen.contains("Summary: 0 of 2 hands correct"), "{screen}");
}

#[test]
fn a_quit_key_as_the_time_runs_out_still_quits() {
    // Keys typed just after "time is up" are thrown away, but Esc among
    // them stops the drill, as it would a moment later.
    let command = format!("{} practice --seed 4 --rounds 3 --time-limit 1", binary());
    let Some(t) = Tmux::start("quit", &command) else {
        return;
    };
    t.wait_for("time is up");
    t.keys(&["Escape"]);
    let screen = t.ended();
    assert!(screen.contains("Summary: 0 of 1 hand correct"), "{screen}");
    assert!(!screen.contains("Hand 2 of 3"), "{screen}");
}

#[test]
fn practice_into_a_pipe_keeps_its_clock_on_the_screen() {
    // `practice | tee log` drew its clock into the pipe, ten times a
    // second, and the log never got the reply as a line.
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("log");
    let command = format!(
        "{} practice --seed 4 --rounds 1 --time-limit 60 | tee {}",
        binary(),
        log.display()
    );
    let Some(t) = Tmux::start("tee", &command) else {
        return;
    };
    t.wait_for("Hand 1 of 1:  6♣ 10♣ 7♦");
    // The clock runs on the screen (on stderr).
    let first = t.wait_for(" s  >");
    std::thread::sleep(Duration::from_millis(400));
    assert_ne!(first, t.screen(), "the clock does not move");
    t.keys(&["10*6+7", "Enter"]);
    let screen = t.ended();
    // What `tee` wrote while the keyboard was read in raw mode starts at
    // the first column, not where the line above it ended (a staircase).
    for line in screen.lines() {
        let text = line.trim_start();
        let stepped = ["Type a calculation", "Hand 1 of 1"]
            .iter()
            .any(|s| text.starts_with(s));
        assert!(!(stepped && text.len() < line.len()), "{screen}");
    }
    // The reply shows once, as the pipe's line, not twice.
    assert_eq!(screen.matches("> 10*6+7").count(), 1, "{screen}");
    assert!(
        screen.contains("valid: 10*6+7 = 67, a prime, in"),
        "{screen}"
    );
    let text = std::fs::read_to_string(&log).unwrap();
    assert!(text.contains("\n> 10*6+7\n"), "{text}");
    assert!(!text.contains(" s  >") && !text.contains('\r'), "{text:?}");
    assert!(text.contains("Summary: 1 of 1 hand correct"), "{text}");
}

#[test]
fn play_in_a_terminal() {
    let command = format!("{} play --seed 3", binary());
    let Some(t) = Tmux::start("play", &command) else {
        return;
    };
    let screen = t.wait_for("turn 1 ");
    assert!(screen.contains("you        17 cards   9♣"), "{screen}");
    assert!(screen.contains("casual 2   17 cards   7♦"), "{screen}");
    assert!(screen.contains("counting 9 2 7"), "{screen}");
    // An empty Enter passes: the bots' calls are shown with their times.
    t.keys(&["Enter"]);
    t.wait_for("casual 2 calls 5");
    t.wait_for("casual 1 and casual 2 called the same prime at once");
    // The result stays up until Enter: the next cards used to come after
    // 2.5 s whatever the person did.
    t.wait_for("Enter: next cards   q: leave");
    std::thread::sleep(Duration::from_millis(3000));
    let screen = t.screen();
    assert!(
        screen.contains("turn 1 ") && !screen.contains("turn 2 "),
        "{screen}"
    );
    // What is typed meanwhile is no claim, and the screen says so.
    t.keys(&["9+5"]);
    t.wait_for("not a claim: these cards are done; Enter shows the next ones  [9+5]");
    t.keys(&["Enter"]);
    let screen = t.wait_for("turn 2 ");
    assert!(
        screen.contains("turn 1: casual 1 and casual 2 tied: the cards are buried"),
        "{screen}"
    );
    assert!(!screen.contains("you call 9+5"), "{screen}");
    // The casual players need about 7 s; typing at once wins.
    t.keys(&["9+5+5", "Enter"]);
    // One call a combination: a key typed while the window closes is
    // shown as no claim, and still is when the result comes.
    t.keys(&["7"]);
    t.wait_for("not a claim: you have called; the window of 1.5 s closes  [7]");
    t.wait_for("you win 9♣ K♠ J♦ with 19");
    // The piles as the cards were shown, and what the winner holds now.
    let screen = t.wait_for("not a claim: these cards are done; Enter shows the next ones  [7]");
    assert!(
        screen.contains("you        17 cards   9♣   → now 20"),
        "{screen}"
    );
    assert!(screen.contains("casual 1   17 cards   K♠\n"), "{screen}");
    // A resize redraws the whole table; keys and a resize during the
    // result break nothing.
    t.keys(&["BSpace", "x", "BSpace"]);
    t.run(&["resize-window", "-t", "t", "-x", "90", "-y", "30"]);
    t.wait_for("Enter: next cards");
    t.keys(&["Enter"]);
    t.wait_for("turn 3 ");
    t.wait_for("you        19 cards   2♦");
    t.keys(&["q"]);
    let screen = t.ended();
    assert!(
        screen.contains("you left the table: you hold the most cards after 3 turns"),
        "{screen}"
    );
    assert!(
        screen.contains("Your record: 1 call, 1 valid, 0 wrong, 1 pass; won 1 combination"),
        "{screen}"
    );
}

/// Two players and a stockpile: every count leaves out the cards face up
/// on the table, so the 54 cards add up; the stockpile's card, once won,
/// leaves the stockpile's count alone.
#[test]
fn play_two_players_counts_every_card_once() {
    let command = format!("{} play --seed 3 --two-player --bots steady", binary());
    let Some(t) = Tmux::start("duel", &command) else {
        return;
    };
    let screen = t.wait_for("turn 1 ");
    let counts: Vec<usize> = screen
        .lines()
        .filter_map(|l| {
            l.split(" cards ")
                .next()?
                .split_whitespace()
                .last()?
                .parse()
                .ok()
        })
        .collect();
    assert_eq!(counts.len(), 3, "{screen}");
    assert_eq!(counts.iter().sum::<usize>() + 3, 54, "{screen}");
    assert!(screen.contains("stockpile  17 cards   "), "{screen}");
    t.keys(&["Enter"]);
    let screen = t.wait_for("Enter: next cards");
    assert!(screen.contains("stockpile  17 cards   "), "{screen}");
    assert!(!screen.contains("→ now 16"), "{screen}");
    t.keys(&["q"]);
    t.ended();
}

/// `--pause SECONDS`: the next cards come after that long without a key.
#[test]
fn play_goes_on_after_the_pause() {
    let command = format!("{} play --seed 3 --pause 1", binary());
    let Some(t) = Tmux::start("pause", &command) else {
        return;
    };
    t.wait_for("turn 1 ");
    t.keys(&["Enter"]);
    t.wait_for("Enter: next cards (or in ");
    t.wait_for("turn 2 ");
    // Ctrl-D (the end of input) on an empty line leaves.
    t.keys(&["C-d"]);
    let screen = t.ended();
    assert!(screen.contains("you left the table"), "{screen}");
}

/// Every line fits the window: the title, a result and the earlier results
/// are cut after a whole word with "…", and the record on leaving is
/// broken between words (they used to be cut mid-word or wrap).
#[test]
fn play_lines_fit_the_window() {
    let title = "Prime Time   seed 3   you against casual 1, casual 2   rules: five (face cards count 5; + − × ÷; primes up to 97)";
    let tie = "  casual 1 and casual 2 called the same prime at once: each buries their card and turns the next";
    let earlier = "  turn 1: casual 1 and casual 2 tied: the cards are buried";
    let mut records = Vec::new();
    // A line as drawn: the whole of `full`, or a start of it ending where
    // a word does, then "…".
    let fits = |line: &str, full: &str, cols: usize| {
        let line = line.trim_end();
        assert!(line.chars().count() < cols, "wider than {cols}: {line}");
        if line == full {
            return;
        }
        let start = line
            .strip_suffix('…')
            .unwrap_or_else(|| panic!("cut without …: {line}"));
        assert!(full.starts_with(start), "{line}");
        let next = full[start.len()..].chars().next();
        assert!(
            matches!(next, Some(' ' | ',' | ';' | ':' | '(')),
            "cut mid-word: {line}"
        );
    };
    for cols in [100u16, 60, 44] {
        let command = format!("{} play --seed 3", binary());
        let Some(t) = Tmux::sized(&format!("fit{cols}"), &command, cols, 40) else {
            return;
        };
        let cols = usize::from(cols);
        t.wait_for("turn 1 ");
        t.keys(&["Enter"]);
        let screen = t.wait_for("Enter: next");
        let result = screen
            .lines()
            .find(|l| l.starts_with("  casual 1 and casual 2 called"))
            .unwrap_or_else(|| panic!("{screen}"));
        fits(result, tie, cols);
        t.keys(&["Enter"]);
        t.wait_for("turn 2 ");
        t.keys(&["Enter"]);
        let screen = t.wait_for("Enter: next");
        for line in screen.lines() {
            assert!(
                line.trim_end().chars().count() < cols,
                "wider than {cols}: {line}\n{screen}"
            );
        }
        let line = |start: &str| {
            screen
                .lines()
                .find(|l| l.starts_with(start))
                .unwrap_or_else(|| panic!("no `{start}`:\n{screen}"))
        };
        fits(line("Prime Time"), title, cols);
        fits(line("  turn 1: "), earlier, cols);
        if cols < 100 {
            assert!(line("Prime Time").ends_with('…'), "{screen}");
            assert!(line("  turn 1: ").ends_with('…') == (cols < 60), "{screen}");
        }
        t.keys(&["q"]);
        let screen = t.ended();
        let shown: Vec<&str> = screen
            .lines()
            .skip_while(|l| !l.starts_with("you left the table"))
            .take_while(|l| !l.starts_with("EXIT="))
            .collect();
        for l in &shown {
            assert!(
                l.trim_end().chars().count() < cols,
                "wider than {cols}: {l}\n{screen}"
            );
        }
        // Broken between words only: the same words at every width.
        let words: Vec<&str> = shown.iter().flat_map(|l| l.split_whitespace()).collect();
        assert!(words.len() > 20, "{screen}");
        records.push(words.join(" "));
    }
    assert!(records.windows(2).all(|w| w[0] == w[1]), "{records:#?}");
}

/// JSON Lines are for a program that feeds the replies: at a keyboard
/// `practice` used to write its prompt into them and show no cards, and
/// `play` said it needed a terminal while it had one.
#[test]
fn json_at_the_keyboard_is_refused_in_one_line() {
    for (name, args, says) in [
        (
            "practice-json",
            "practice --seed 1 --rounds 2 -f json",
            "prime-solve: practice --format json reads its replies from a pipe or --script FILE",
        ),
        (
            "play-json",
            "play --seed 3 -f json",
            "prime-solve: play --format json takes its moves from --script FILE",
        ),
    ] {
        let command = format!("{} {args} 2>&1", binary());
        let Some(t) = Tmux::start(name, &command) else {
            return;
        };
        let screen = t.wait_for("MODE ");
        assert!(screen.contains("EXIT=2"), "{screen}");
        assert!(screen.contains(says), "{screen}");
        assert!(screen.contains("MODE icanon echo"), "{screen}");
    }
}

/// A claim wider than the window: the prompt line shows its end and stays
/// one line (it used to wrap and be drawn again a row lower ten times a
/// second, scrolling the cards away).
#[test]
fn a_long_claim_in_a_narrow_window_stays_on_its_line() {
    let command = format!("{} practice --seed 4 --rounds 1", binary());
    let Some(t) = Tmux::sized("narrow", &command, 40, 20) else {
        return;
    };
    t.wait_for("Hand 1 of 1:");
    t.wait_for(" s  >");
    let claim = "1+".repeat(30) + "1";
    t.keys(&[&claim]);
    t.wait_for("> …1+1+1+1+1+1+1+1");
    // A second of redraws.
    std::thread::sleep(Duration::from_millis(1000));
    let screen = t.screen();
    assert!(screen.contains("Hand 1 of 1:"), "{screen}");
    assert_eq!(screen.matches(" s  >").count(), 1, "{screen}");
    t.keys(&["Enter"]);
    t.ended();
}

/// Killed at the table (SIGTERM: `kill`, `timeout`; SIGHUP: a closed ssh
/// session), `play` and `practice` give the terminal back: they used to
/// leave it raw (no echo, no line editing), and `play` on the alternate
/// screen.
#[test]
fn a_signal_gives_the_terminal_back() {
    for (name, args, shown) in [
        ("term-play", "play --seed 5", "turn 1 "),
        ("term-practice", "practice --seed 4", " s  >"),
    ] {
        let dir = tempfile::tempdir().unwrap();
        let pid = dir.path().join("pid");
        let command = format!(
            "sh -c 'echo $$ > {}; exec {} {args}'",
            pid.display(),
            binary()
        );
        let Some(t) = Tmux::start(name, &command) else {
            return;
        };
        t.wait_for(shown);
        let pid = std::fs::read_to_string(&pid).unwrap();
        let killed = Command::new("kill")
            .args(["-TERM", pid.trim()])
            .status()
            .unwrap();
        assert!(killed.success());
        let screen = t.wait_for("MODE ");
        assert!(screen.contains("EXIT=143"), "{screen}");
        assert!(screen.contains("MODE icanon echo"), "{screen}");
        let alternate = t.run(&["display", "-p", "-t", "t", "#{alternate_on}"]);
        assert_eq!(String::from_utf8_lossy(&alternate.stdout).trim(), "0");
    }
}
