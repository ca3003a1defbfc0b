//! `analyze --shard I/N` and `merge`: a part of a sweep written to its own
//! folder with a manifest, and the parts checked and merged into the
//! reports one `analyze` run writes.
//!
//! A part's folder holds `part.json` (each rule set's analysis of the
//! part's hands, or why it was not done) and `manifest.json` (the sweep,
//! the part, its hands' checksum and `part.json`'s), written after
//! `part.json` by the same atomic run ([`write_files`]): a folder without
//! a manifest, or whose `part.json` does not match it, is no finished part.
//! `merge` takes no part on trust: the referee checks every witness a part
//! carries before it is merged.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};
use serde::{Deserialize, Serialize};

use prime_solve::analysis::{Analysis, NotDone};
use prime_solve::report::File;
use prime_solve::shard::{Shard, check_witnesses, combine, digest, for_summaries, split};
use prime_solve::text::{echo, plural};
use prime_solve::{Brackets, Hand, Rules, Style, fnv1a64};

use super::analyze::sweep::{done_and_not, screen_of, solve, write_reports};
use super::args::{AnalyzeArgs, Format, MergeArgs};
use super::write::{check_folder, write_files};
use super::{Verdict, print, thread_pool};

/// What a part's files are: its format's name and version.
const FORMAT: &str = "prime-solve part 1";
const MANIFEST: &str = "manifest.json";
const PAYLOAD: &str = "part.json";

/// What makes two parts parts of the same sweep: everything that changes
/// a result or a report.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
struct Spec {
    /// `prime-solve` and its version: parts of other versions may differ.
    tool: String,
    cards: usize,
    rule_sets: Vec<Rules>,
    count_every_prime: bool,
    skip_refused: bool,
    summaries_only: bool,
    no_ways: bool,
    ascii: bool,
    brackets: String,
    /// N, the number of parts.
    parts: u32,
}

impl Spec {
    fn of(args: &AnalyzeArgs, rule_sets: &[Rules], cards: usize, parts: u32) -> Spec {
        Spec {
            tool: format!("prime-solve {}", env!("CARGO_PKG_VERSION")),
            cards,
            rule_sets: rule_sets.to_vec(),
            count_every_prime: args.count_every_prime,
            skip_refused: args.skip_refused,
            summaries_only: args.summaries_only,
            no_ways: args.no_ways,
            ascii: args.style.ascii,
            brackets: match args.style.brackets {
                Brackets::Minimal => "minimal".into(),
                Brackets::Full => "full".into(),
            },
            parts,
        }
    }

    fn style(&self) -> Style {
        Style {
            ascii: self.ascii,
            brackets: if self.brackets == "full" {
                Brackets::Full
            } else {
                Brackets::Minimal
            },
        }
    }

    /// The first way `other` differs from this sweep, in words.
    fn difference(&self, other: &Spec) -> String {
        let names = |s: &Spec| {
            s.rule_sets
                .iter()
                .map(|r| prime_solve::analysis::folder(r, s.cards))
                .collect::<Vec<_>>()
                .join(", ")
        };
        let pairs: [(&str, String, String); 10] = [
            ("version", self.tool.clone(), other.tool.clone()),
            ("cards", self.cards.to_string(), other.cards.to_string()),
            ("parts", self.parts.to_string(), other.parts.to_string()),
            ("rule sets", names(self), names(other)),
            (
                "rules",
                format!("{:?}", self.rule_sets),
                format!("{:?}", other.rule_sets),
            ),
            (
                "--count-every-prime",
                self.count_every_prime.to_string(),
                other.count_every_prime.to_string(),
            ),
            (
                "--skip-refused",
                self.skip_refused.to_string(),
                other.skip_refused.to_string(),
            ),
            (
                "--summaries-only",
                self.summaries_only.to_string(),
                other.summaries_only.to_string(),
            ),
            (
                "--no-ways",
                self.no_ways.to_string(),
                other.no_ways.to_string(),
            ),
            (
                "style",
                format!("{} {}", self.ascii, self.brackets),
                format!("{} {}", other.ascii, other.brackets),
            ),
        ];
        pairs
            .into_iter()
            .find(|(_, a, b)| a != b)
            .map_or_else(String::new, |(what, a, b)| {
                let short = |s: String| {
                    if s.len() > 80 {
                        format!("{}…", s.chars().take(80).collect::<String>())
                    } else {
                        s
                    }
                };
                format!("its {what}: {}, not {}", short(b), short(a))
            })
    }
}

/// A part's manifest: the sweep, which part, and checksums of its hands
/// and of `part.json`.
#[derive(Clone, Debug, Serialize, Deserialize)]
struct Manifest {
    format: String,
    sweep: Spec,
    part: Shard,
    /// The part's hands, and the FNV-1a checksum of their list.
    hands: usize,
    hands_fnv1a64: String,
    /// `part.json`'s length and FNV-1a checksum.
    payload_bytes: u64,
    payload_fnv1a64: String,
}

/// `analyze --shard I/N --out DIR`: solves the part's hands by the sweep
/// itself and writes the part to DIR; a finished part of the same sweep
/// already there is left as it is.
pub(crate) fn run(
    args: &AnalyzeArgs,
    rule_sets: &[Rules],
    cards: usize,
    shard: Shard,
) -> Result<Verdict> {
    let spec = Spec::of(args, rule_sets, cards, shard.count);
    let screen = screen_of(args, cards);
    let hands = split(rule_sets, cards, &screen, shard.count).swap_remove(shard.index as usize - 1);
    let dir = &args.out;
    if finished_here(dir, &spec, shard)? {
        print(&format!(
            "part {shard}: already finished in {}, left as it is\n",
            echo(&dir.display().to_string())
        ))?;
        return Ok(Verdict::Yes);
    }
    check_folder(dir).context("cannot write the part")?;
    let pool = thread_pool(args.work.threads)?;
    let keep = |h: Hand| hands.binary_search(&h).is_ok();
    let mut outcomes = solve(args, rule_sets, cards, &keep, &pool)?;
    if args.summaries_only {
        // Only what the summaries read: a few dozen primes a hand, not
        // every one.
        outcomes.iter_mut().flatten().for_each(for_summaries);
    }
    let refused = outcomes.iter().filter(|o| o.is_err()).count();
    let payload = serde_json::to_string(&outcomes)?;
    let manifest = Manifest {
        format: FORMAT.into(),
        sweep: spec.clone(),
        part: shard,
        hands: hands.len(),
        hands_fnv1a64: hex(digest(&hands)),
        payload_bytes: payload.len() as u64,
        payload_fnv1a64: hex(fnv1a64(payload.as_bytes())),
    };
    // Another run may have finished this part into the same folder meanwhile.
    if finished_here(dir, &spec, shard)? {
        print(&format!(
            "part {shard}: already finished in {}, left as it is\n",
            echo(&dir.display().to_string())
        ))?;
        return Ok(Verdict::Yes);
    }
    // The manifest last: until it is in place, no part is there.
    let files = [
        File::new(PAYLOAD, payload),
        File::new(MANIFEST, serde_json::to_string_pretty(&manifest)? + "\n"),
    ];
    write_files(dir, &files).context("cannot write the part")?;
    let out = match args.format {
        Format::Json => {
            serde_json::to_string_pretty(&serde_json::json!({
                "part": shard.to_string(),
                "hands": hands.len(),
                "rule_sets": rule_sets.len(),
                "not_done": refused,
                "folder": dir.display().to_string(),
            }))? + "\n"
        }
        Format::Text => format!(
            "part {shard}: {} under {}{}, in {}\n",
            plural(hands.len(), "hand", "hands"),
            plural(rule_sets.len(), "rule set", "rule sets"),
            if refused > 0 {
                format!(" ({refused} not done)")
            } else {
                String::new()
            },
            echo(&dir.display().to_string())
        ),
    };
    print(&out)?;
    Ok(Verdict::Yes)
}

/// Whether `dir` holds this part of this sweep, finished; an error if it
/// holds a finished part of another sweep or another part (each part
/// needs a folder of its own). A folder without a finished part (none
/// yet, or one cut short) is written over.
fn finished_here(dir: &Path, spec: &Spec, shard: Shard) -> Result<bool> {
    if !dir.join(MANIFEST).exists() {
        return Ok(false);
    }
    let Ok((manifest, _)) = read_part(dir, false) else {
        return Ok(false);
    };
    if manifest.sweep != *spec || manifest.part != shard {
        bail!(
            "{} already holds part {} of {}: give each part a folder of its own, or remove it",
            echo(&dir.display().to_string()),
            manifest.part,
            if manifest.sweep == *spec {
                "this sweep".into()
            } else {
                format!("another sweep ({})", spec.difference(&manifest.sweep))
            }
        );
    }
    Ok(read_part(dir, true).is_ok())
}

fn hex(n: u64) -> String {
    format!("{n:016x}")
}

/// A part's manifest, and (with `payload`) its `part.json` checked against
/// it; an error naming the folder and what is wrong.
fn read_part(dir: &Path, payload: bool) -> Result<(Manifest, Option<Vec<u8>>)> {
    let name = echo(&dir.display().to_string()).into_owned();
    let text = match std::fs::read_to_string(dir.join(MANIFEST)) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => bail!(
            "{name} holds no finished part (no {MANIFEST}): its shard was interrupted or has \
             not run; run it again"
        ),
        Err(e) => bail!("cannot read {name}/{MANIFEST}: {e}"),
    };
    let manifest: Manifest = serde_json::from_str(&text)
        .ok()
        .filter(|m: &Manifest| m.format == FORMAT)
        .with_context(|| {
            format!("{name}/{MANIFEST} is not the manifest of a part of this version ({FORMAT})")
        })?;
    let part = manifest.part;
    if part.count != manifest.sweep.parts || part.index == 0 || part.index > part.count {
        bail!(
            "{name}/{MANIFEST} disagrees with itself: it names part {} of {} parts, of a sweep \
             of {} parts",
            part.index,
            part.count,
            manifest.sweep.parts
        );
    }
    if !payload {
        return Ok((manifest, None));
    }
    let bytes = std::fs::read(dir.join(PAYLOAD)).with_context(|| {
        format!("{name} holds no {PAYLOAD}: the part is not finished; run its shard again")
    })?;
    if bytes.len() as u64 != manifest.payload_bytes
        || hex(fnv1a64(&bytes)) != manifest.payload_fnv1a64
    {
        bail!(
            "{name}/{PAYLOAD} does not match its manifest (length or checksum): the part is \
             damaged or was cut short; run shard {} again",
            manifest.part
        );
    }
    Ok((manifest, Some(bytes)))
}

/// One part's results, each rule set's analysis or why it was not done.
type Part = Vec<Result<Analysis, NotDone>>;

/// Every part's results, in part order, each checked against its manifest
/// and the split `plan`, and every witness re-checked by the referee
/// ([`check_witnesses`]) in `style`. The referee checks one part on the
/// pool while the next is read and parsed; the error is the first part's
/// in part order.
fn read_parts(
    by_index: &BTreeMap<u32, &Path>,
    plan: &[Vec<Hand>],
    style: Style,
    pool: &super::Pool,
) -> Result<Vec<Part>> {
    let name = |d: &Path| echo(&d.display().to_string()).into_owned();
    std::thread::scope(|scope| {
        let (send, parsed) = std::sync::mpsc::channel::<(String, Shard, Part)>();
        let referee = scope.spawn(move || -> Result<Vec<Part>> {
            let mut checked = Vec::new();
            for (dir, shard, part) in parsed {
                // The checksums tell a damaged part; the referee, a part
                // whose results are not what a shard solves.
                let verdict = pool.install(|| {
                    part.iter()
                        .flatten()
                        .try_for_each(|a| check_witnesses(a, style))
                });
                if let Err(bad) = verdict {
                    bail!("{dir}/{PAYLOAD}: {bad}; run shard {shard} again");
                }
                checked.push(part);
            }
            Ok(checked)
        });
        let read = (|| -> Result<()> {
            for (&index, dir) in by_index {
                let (m, bytes) = read_part(dir, true)?;
                let hands = &plan[index as usize - 1];
                if m.hands != hands.len() || m.hands_fnv1a64 != hex(digest(hands)) {
                    bail!(
                        "{}: its hands are not those of part {} of this sweep",
                        name(dir),
                        m.part
                    );
                }
                let part: Part = serde_json::from_slice(&bytes.unwrap_or_default())
                    .with_context(|| format!("{}/{PAYLOAD} cannot be read", name(dir)))?;
                if send.send((name(dir), m.part, part)).is_err() {
                    // The referee has stopped: it refused an earlier part.
                    break;
                }
            }
            Ok(())
        })();
        drop(send);
        let checked = referee.join().expect("the referee's thread")?;
        read.map(|()| checked)
    })
}

/// `prime-solve merge --out DIR PART...`.
pub(crate) fn merge(args: &MergeArgs) -> Result<Verdict> {
    // Every manifest first: a missing or doubled part is named before any
    // payload is read.
    let mut manifests: Vec<(PathBuf, Manifest)> = Vec::new();
    for dir in &args.parts {
        manifests.push((dir.clone(), read_part(dir, false)?.0));
    }
    let (first_dir, first) = &manifests[0];
    let spec = first.sweep.clone();
    let name = |d: &Path| echo(&d.display().to_string()).into_owned();
    let mut by_index: BTreeMap<u32, &Path> = BTreeMap::new();
    for (dir, m) in &manifests {
        if m.sweep != spec {
            bail!(
                "{} is a part of another sweep than {}: {}",
                name(dir),
                name(first_dir),
                spec.difference(&m.sweep)
            );
        }
        if let Some(other) = by_index.insert(m.part.index, dir) {
            bail!(
                "part {} is given twice: {} and {}",
                m.part,
                name(other),
                name(dir)
            );
        }
    }
    let missing: Vec<String> = (1..=spec.parts)
        .filter(|i| !by_index.contains_key(i))
        .map(|i| format!("{i}/{}", spec.parts))
        .collect();
    if !missing.is_empty() {
        let shown: Vec<&str> = missing.iter().take(20).map(String::as_str).collect();
        bail!(
            "{} of {} {} missing: {}{} ({} given)",
            missing.len(),
            plural(spec.parts, "part", "parts"),
            if missing.len() == 1 { "is" } else { "are" },
            shown.join(", "),
            if missing.len() > shown.len() {
                ", …"
            } else {
                ""
            },
            by_index.len()
        );
    }
    check_folder(&args.out).context("cannot write reports")?;
    let screen = |r: &Rules| {
        prime_solve::analysis::screen(r, spec.cards).filter(|_| !spec.count_every_prime)
    };
    let plan = split(&spec.rule_sets, spec.cards, &screen, spec.parts);
    let pool = thread_pool(args.work.threads)?;
    let outcomes = read_parts(&by_index, &plan, spec.style(), &pool)?;
    let (analyses, not_done) = combine(&spec.rule_sets, spec.cards, outcomes)
        .context("the parts do not make up the sweep")?;
    // As one run: an error when no rule set was done.
    let (analyses, not_done) = done_and_not(
        analyses
            .into_iter()
            .map(Ok)
            .chain(not_done.into_iter().map(Err))
            .collect(),
    )?;
    write_reports(
        &args.out,
        &analyses,
        &not_done,
        spec.style(),
        spec.summaries_only,
        args.format,
        &pool,
    )
}
