//! The drill's history: one CSV row appended per hand, and `--stats`, a
//! summary of every row so far.

use std::collections::BTreeMap;
use std::fs::{self, File, OpenOptions};

use prime_solve::Style;
use prime_solve::text::echo;
use std::path::Path;
use std::time::SystemTime;

use anyhow::{Context, Result, bail};

use prime_solve::Rules;
use prime_solve::median;
use prime_solve::practice::{Reply, Round};
use prime_solve::text::plural;

const HEADER: [&str; 8] = [
    "time",
    "cards",
    "hand",
    "rules",
    "claim",
    "verdict",
    "seconds",
    "best_prime",
];

/// The largest history `--stats` reads: far more rounds than anyone plays.
const MAX_HISTORY: u64 = 256 << 20;

/// Refuses a history that is not a regular file or a new path (a folder,
/// a device such as /dev/zero, a FIFO): it could never end or be a history.
fn regular_or_new(path: &Path) -> Result<()> {
    match fs::metadata(path) {
        Ok(m) if m.is_dir() => bail!(
            "the history {} is a folder: give a file",
            echo(&path.display().to_string())
        ),
        Ok(m) if !m.is_file() => bail!(
            "the history {} is not a regular file: give a file",
            echo(&path.display().to_string())
        ),
        _ => Ok(()),
    }
}

/// The history file, opened to append (created with its header if new or
/// empty).
pub(crate) struct Log {
    writer: csv::Writer<File>,
    path: std::path::PathBuf,
}

pub(crate) fn open(path: &Path) -> Result<Log> {
    let fail = || {
        format!(
            "cannot open the history {}",
            echo(&path.display().to_string())
        )
    };
    regular_or_new(path)?;
    // An empty file (one created and cut off before its header) is a new
    // history.
    if fs::metadata(path).is_ok_and(|m| m.is_file() && m.len() > 0) {
        // Appending to something else would spoil it.
        stats(path).map_err(|e| {
            anyhow::anyhow!("{e:#}; give a new file or an earlier practice history")
        })?;
    }
    let file = OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
        .with_context(fail)?;
    let len = file.metadata().with_context(fail)?.len();
    let empty = len == 0;
    // A last line cut off before its end of line (a drill killed
    // mid-write, an editor): ended first, so that the next row does not
    // run on from it.
    if !empty && !ends_a_line(path, len).with_context(fail)? {
        std::io::Write::write_all(&mut &file, b"\n").with_context(fail)?;
    }
    let mut writer = csv::Writer::from_writer(file);
    if empty {
        writer.write_record(HEADER).with_context(fail)?;
        writer.flush().with_context(fail)?;
    }
    Ok(Log {
        writer,
        path: path.to_path_buf(),
    })
}

/// Whether the file at `path`, `len` bytes long, ends with an end of line.
fn ends_a_line(path: &Path, len: u64) -> std::io::Result<bool> {
    use std::io::{Read, Seek, SeekFrom};
    let mut file = File::open(path)?;
    file.seek(SeekFrom::Start(len.saturating_sub(1)))?;
    let mut last = [0u8; 1];
    file.read_exact(&mut last)?;
    Ok(last[0] == b'\n')
}

/// Appends one round and flushes it, so that a drill stopped at any point
/// keeps every hand played.
pub(crate) fn append(log: &mut Log, r: &Round, rules: &Rules, style: Style) -> Result<()> {
    let cards: Vec<String> = r
        .cards
        .iter()
        .map(|&c| prime_solve::practice::face(c, style))
        .collect();
    let (claim, verdict) = match (&r.reply, &r.ruling) {
        (Reply::Claim(c), Some(Ok(_))) => (c.as_str(), "valid"),
        (Reply::Claim(c), _) => (c.as_str(), "invalid"),
        (Reply::Pass, _) => ("", "pass"),
    };
    let best = r
        .answers
        .best()
        .map_or(String::new(), |a| a.prime.to_string());
    let row = [
        timestamp(SystemTime::now()),
        cards.join(" "),
        r.answers.hand.to_string(),
        rules.name(),
        claim.to_string(),
        verdict.to_string(),
        format!("{:.1}", r.ms as f64 / 1000.0),
        best,
    ];
    let fail = || format!("cannot write to the history {}", log.path.display());
    log.writer.write_record(&row).with_context(fail)?;
    log.writer.flush().with_context(fail)?;
    Ok(())
}

/// UTC as `2026-11-30T07:29:17Z`.
fn timestamp(t: SystemTime) -> String {
    let secs = t
        .duration_since(SystemTime::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    let (days, rest) = ((secs / 86_400) as i64, secs % 86_400);
    // Howard Hinnant's civil_from_days.
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!(
        "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}Z",
        rest / 3600,
        rest % 3600 / 60,
        rest % 60
    )
}

/// A summary of the history: hands, correct calls, times, per rule set,
/// and the hands missed most often.
pub(crate) fn stats(path: &Path) -> Result<String> {
    let mut reader = read_history(path)?;
    // What the summary keeps grows with the rows (a history of millions of
    // rows, each with a rule set of its own): charged to the process's
    // budget as it grows, so that one too large is refused, not an abort.
    let budget = crate::cli::memory::budget();
    let mut held = prime_solve::Charge::default();
    let mut hold = |bytes: usize| -> Result<()> {
        let charge = budget.charge(bytes as u64).map_err(|_| {
            anyhow::anyhow!(
                "the history {} is too large to sum up within the memory limit of {}",
                echo(&path.display().to_string()),
                prime_solve::text::Bytes(budget.limit())
            )
        })?;
        held.absorb(charge);
        Ok(())
    };
    let tally = Tally::of(&mut reader, path, &mut hold)?;
    tally.summary(path, &mut hold)
}

/// The history at `path`, its first line read and checked.
fn read_history(path: &Path) -> Result<csv::Reader<fs::File>> {
    regular_or_new(path)?;
    if fs::metadata(path).is_ok_and(|m| m.len() > MAX_HISTORY) {
        bail!(
            "the history {} is larger than {} MiB: not a practice history",
            echo(&path.display().to_string()),
            MAX_HISTORY >> 20
        );
    }
    let mut reader = csv::Reader::from_path(path)
        .with_context(|| format!("cannot read the history {}", path.display()))?;
    let headers = reader
        .headers()
        .with_context(|| format!("cannot read the history {}", path.display()))?
        .clone();
    if headers.iter().collect::<Vec<_>>() != HEADER {
        bail!(
            "{} is not a practice history: its first line should be {}",
            path.display(),
            HEADER.join(",")
        );
    }
    Ok(reader)
}

/// What the summary counts of a history.
#[derive(Default)]
struct Tally {
    /// Hands, and those called correctly.
    total: usize,
    correct: usize,
    /// The times of the correct calls, in ms, ascending.
    times: Vec<u64>,
    /// Each rule set's hands and correct calls.
    per_rules: BTreeMap<String, (usize, usize)>,
    /// How often each hand (with its rule set) was missed.
    missed: BTreeMap<(String, String), usize>,
}

impl Tally {
    /// The rows of `reader`, each checked; `hold` charges what the tally
    /// keeps as it grows.
    fn of(
        reader: &mut csv::Reader<fs::File>,
        path: &Path,
        hold: &mut impl FnMut(usize) -> Result<()>,
    ) -> Result<Tally> {
        // An entry of a map beside its key's text: the node, the string's
        // header and the allocator's rounding, generously.
        const ENTRY: usize = 160;
        let mut t = Tally::default();
        for (i, row) in reader.records().enumerate() {
            let row = row.with_context(|| format!("{}: row {}", path.display(), i + 2))?;
            let field = |k: usize| row.get(k).unwrap_or("");
            let (hand, rules, verdict) = (field(2), field(3), field(5));
            if !matches!(verdict, "valid" | "invalid" | "pass") {
                bail!(
                    "{}: row {}: `{}` is not a verdict: valid, invalid or pass",
                    path.display(),
                    i + 2,
                    verdict
                );
            }
            let Some(secs) = field(6)
                .parse::<f64>()
                .ok()
                .filter(|s| s.is_finite() && *s >= 0.0)
            else {
                bail!(
                    "{}: row {}: `{}` is not a number of seconds",
                    path.display(),
                    i + 2,
                    field(6)
                );
            };
            t.total += 1;
            if !t.per_rules.contains_key(rules) {
                hold(ENTRY + rules.len())?;
            }
            let entry = t.per_rules.entry(rules.to_string()).or_default();
            entry.0 += 1;
            if verdict == "valid" {
                t.correct += 1;
                entry.1 += 1;
            } else {
                let key = (rules.to_string(), hand.to_string());
                if !t.missed.contains_key(&key) {
                    hold(ENTRY + rules.len() + hand.len())?;
                }
                *t.missed.entry(key).or_default() += 1;
            }
            if verdict == "valid" {
                if t.times.len() == t.times.capacity() {
                    let more = t.times.capacity().max(64);
                    hold(more * size_of::<u64>())?;
                    t.times.reserve_exact(more);
                }
                t.times.push((secs.clamp(0.0, 1e9) * 1000.0).round() as u64);
            }
        }
        t.times.sort_unstable();
        Ok(t)
    }

    /// The summary in lines of text, escaped.
    fn summary(&self, path: &Path, hold: &mut impl FnMut(usize) -> Result<()>) -> Result<String> {
        let mut out = format!(
            "history {}: {}, {} correct",
            path.display(),
            plural(self.total, "hand", "hands"),
            self.correct
        );
        if let Some(pct) = (self.correct * 100).checked_div(self.total) {
            out.push_str(&format!(" ({pct}%)"));
        }
        if let Some(m) = median(&self.times) {
            out.push_str(&format!(
                "; median time of a correct call {:.1} s, slowest {:.1} s",
                m as f64 / 1000.0,
                *self.times.last().unwrap_or(&0) as f64 / 1000.0
            ));
        }
        out.push('\n');
        for (rules, (n, ok)) in &self.per_rules {
            out.push_str(&format!("  {rules}: {} of {n} correct\n", ok));
        }
        hold(self.missed.len() * size_of::<(&(String, String), &usize)>())?;
        let mut worst: Vec<(&(String, String), &usize)> = self.missed.iter().collect();
        worst.sort_by(|a, b| b.1.cmp(a.1).then(a.0.cmp(b.0)));
        if !worst.is_empty() {
            let shown: Vec<String> = worst
                .iter()
                .take(5)
                .map(|((rules, hand), n)| format!("{hand} ({rules}, {n}×)"))
                .collect();
            out.push_str(&format!("  missed most: {}\n", shown.join(", ")));
        }
        // The history's fields and path are the user's text: escaped, line by
        // line (a second copy, up to four bytes a byte where escaped).
        hold(out.len() * 5)?;
        Ok(out.lines().map(|l| echo(l) + "\n").collect())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn timestamps() {
        let t = SystemTime::UNIX_EPOCH + std::time::Duration::from_secs(1_795_937_357);
        assert_eq!(timestamp(t), "2026-11-29T07:29:17Z");
        assert_eq!(timestamp(SystemTime::UNIX_EPOCH), "1970-01-01T00:00:00Z");
    }
}
