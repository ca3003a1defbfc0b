//! The page of `prime-solve serve`, driven in a real headless Chromium at
//! 390×844 and 360×640 by `tests/browser/page.mjs` (playwright-core from
//! the committed lockfile, `npm ci` in `tests/browser`). The screenshots go
//! to `target/screenshots/`. Without Chromium, node or the installed
//! package each test fails and says what to install, unless
//! `PRIME_SOLVE_SKIP` names `browser` (`common::require`).
#![cfg(feature = "serve")]

use std::path::PathBuf;
use std::process::Command;

mod common;

/// One browser test at a time: two Chromiums on two cores slow each
/// other past their waits.
static ONE_AT_A_TIME: std::sync::Mutex<()> = std::sync::Mutex::new(());

/// Runs `script` in node with the server's address, the screenshot
/// folder and `extra`, stops the server, and checks that the script passed
/// and wrote the `shots` named.
fn drive(script: &str, extra: &[String], shots_named: &[&str]) {
    let _turn = ONE_AT_A_TIME
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    if !common::require(common::Tool::Browser) {
        return;
    }
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let (mut server, addr) = common::serve(&[]);
    let shots = root.join("target/screenshots");
    std::fs::create_dir_all(&shots).unwrap();
    let extra: Vec<String> = extra
        .iter()
        .map(|a| a.replace("{pid}", &server.id().to_string()))
        .collect();
    let out = Command::new("node")
        .arg(root.join("tests/browser").join(script))
        .arg(format!("http://{addr}/"))
        .arg(&shots)
        .args(&extra)
        .output()
        .unwrap();
    let _ = server.kill();
    let _ = server.wait();
    assert!(
        out.status.success(),
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    for name in shots_named {
        assert!(shots.join(name).metadata().unwrap().len() > 1000, "{name}");
    }
}

/// Three phones join one room by its code; calls tapped on the keypad (a
/// claim that cannot be read is no call, a valid one's verdict reaches
/// them all); the host deals now; a reload keeps a seat; a latecomer
/// watches; the big screen at 1920 × 1080; the host ends the game.
#[test]
fn three_phones_play_in_one_room() {
    drive(
        "room.mjs",
        &[],
        &[
            "room-lobby-390x844.png",
            "room-not-a-call-390x844.png",
            "room-verdict-360x640.png",
            "room-table-1920x1080.png",
            "room-over-360x640.png",
            "room-table-over-1920x1080.png",
        ],
    );
}

/// A hand tapped and its primes worked, the referee, a failing hand's
/// nearest prime above the ceiling, a practice round,
/// the crib, the day's ten, dark mode, and a hand answered offline.
#[test]
fn the_page_answers_tapped_hands_referees_drills_and_works_offline_at_phone_sizes() {
    // The script stops the server itself ({pid}), to answer a hand offline.
    drive(
        "page.mjs",
        &["{pid}".to_string()],
        &[
            "page-390x844.png",
            "page-360x640.png",
            "page-nearest-360x640.png",
            "practice-390x844.png",
            "crib-360x640.png",
            "page-dark-390x844.png",
            "offline-360x640.png",
        ],
    );
}
