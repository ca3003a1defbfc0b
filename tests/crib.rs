//! `prime-solve crib`: the committed sheets are what the command writes,
//! the PDF holds real text, and the page renders. Reading the PDF takes
//! poppler's tools (`apt-get install poppler-utils`); without them those
//! tests fail, unless `PRIME_SOLVE_SKIP` names `pdf` (`common::require`).

mod common;

use std::path::Path;
use std::process::Command as Process;

use common::{Tool, fails_with, prime_solve};

fn committed(name: &str) -> Vec<u8> {
    std::fs::read(
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("reports")
            .join(name),
    )
    .unwrap()
}

fn crib(flags: &[&str], out: &Path) {
    prime_solve()
        .arg("crib")
        .args(flags)
        .arg("--out")
        .arg(out)
        .assert()
        .success();
}

#[test]
fn the_committed_cribs_are_what_the_command_writes() {
    let dir = tempfile::tempdir().unwrap();
    for (flags, name) in [
        (&[][..], "crib-five.pdf"),
        (&["--faces", "rank"][..], "crib-rank.pdf"),
    ] {
        let out = dir.path().join(name);
        crib(flags, &out);
        assert!(
            std::fs::read(&out).unwrap() == committed(name),
            "reports/{name} differs: regenerate it (README)"
        );
    }
}

/// The text poppler's `pdftotext` extracts from `pdf` with `flags`
/// (`-raw`: in the order drawn; `-bbox`: word boxes as XHTML).
fn pdftotext(pdf: &Path, flags: &[&str]) -> String {
    let out = Process::new("pdftotext")
        .args(flags)
        .arg(pdf)
        .arg("-")
        .output()
        .unwrap_or_else(|e| panic!("pdftotext could not run ({e})"));
    assert!(
        out.status.success(),
        "pdftotext {flags:?} failed on {}",
        pdf.display()
    );
    String::from_utf8(out.stdout).unwrap()
}

/// The committed cribs' fonts are embedded, and their text reads back.
#[test]
fn the_pdf_has_real_text_and_the_right_pages() {
    let five = committed("crib-five.pdf");
    let rank = committed("crib-rank.pdf");
    assert!(five.starts_with(b"%PDF-1.7"));
    let pages = |pdf: &[u8]| {
        pdf.windows(b"/Type /Page\n".len())
            .filter(|w| w == b"/Type /Page\n")
            .count()
    };
    assert_eq!(pages(&five), 2);
    assert_eq!(pages(&rank), 4);
    assert!(!five.windows(12).any(|w| w == b"CreationDate"));
    if !common::require(Tool::Pdf) {
        return;
    }
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("reports");
    let five = pdftotext(&dir.join("crib-five.pdf"), &["-raw"]);
    let rank = pdftotext(&dir.join("crib-rank.pdf"), &["-raw"]);
    // Real text in the embedded font: 4 6 8's best prime and its quickest
    // call, minus signs and all.
    assert!(five.contains("3=(6×4)÷8"), "{five}");
    assert!(five.contains("2=6+4−8"));
    // The two failing hands under rank are marked, and named in the legend
    // (which says "none" too, as does every page's "House rules: none").
    let marked = |t: &str| {
        t.matches("none").count() - t.matches("\"none\"").count() - t.matches("none beyond").count()
    };
    assert_eq!(marked(&rank), 2);
    assert!(rank.contains("5 8 12, 9 12 12"));
    assert_eq!(marked(&five), 0);
}

/// A word's box as `pdftotext -bbox` gives it, in points from the page's
/// top left corner.
#[derive(Debug)]
struct Word {
    page: usize,
    x_min: f32,
    y_min: f32,
    x_max: f32,
    y_max: f32,
    text: String,
}

/// The attribute `name="..."` of an XHTML tag, as a number.
fn attr(tag: &str, name: &str) -> f32 {
    let start = tag.find(&format!("{name}=\"")).unwrap() + name.len() + 2;
    let len = tag[start..].find('"').unwrap();
    tag[start..start + len].parse().unwrap()
}

/// Each page's size, and every word on the pages, from `pdftotext -bbox`.
fn words(pdf: &Path) -> (Vec<(f32, f32)>, Vec<Word>) {
    let html = pdftotext(pdf, &["-bbox"]);
    let mut pages = Vec::new();
    let mut words = Vec::new();
    for line in html.lines().map(str::trim) {
        if line.starts_with("<page ") {
            pages.push((attr(line, "width"), attr(line, "height")));
        } else if let Some(rest) = line.strip_prefix("<word ") {
            let (tag, text) = rest.split_once('>').unwrap();
            let text = text.trim_end_matches("</word>");
            words.push(Word {
                page: pages.len(),
                x_min: attr(tag, "xMin"),
                y_min: attr(tag, "yMin"),
                x_max: attr(tag, "xMax"),
                y_max: attr(tag, "yMax"),
                text: text
                    .replace("&lt;", "<")
                    .replace("&gt;", ">")
                    .replace("&quot;", "\"")
                    .replace("&amp;", "&"),
            });
        }
    }
    (pages, words)
}

/// The crib's font is DejaVu Sans, whose ascender and descender span
/// 0.928 + 0.236 = 1.164 em: pdftotext's word boxes are that many times
/// the font size tall.
const BOX_PER_POINT: f32 = 1.164;

/// Read back as a reader's tools read it: every word at 7 pt or more and
/// inside its page, the fonts embedded, and every hand's best prime
/// written with its calculation, under four rule sets (one of them with
/// primes of any size).
#[test]
fn every_word_is_legible_inside_its_page_and_every_best_prime_has_its_calculation() {
    use prime_solve::analysis::analyze;
    use prime_solve::{Budget, Faces, Rules, Style};

    if !common::require(Tool::Pdf) {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let high = Rules {
        max_prime: None,
        ..Rules::default()
    };
    let cases = [
        (&["--faces", "five"][..], Rules::default(), "five"),
        (
            &["--faces", "rank"][..],
            Rules {
                faces: Faces::Rank,
                ..Rules::default()
            },
            "rank",
        ),
        (
            &["--faces", "suit"][..],
            Rules {
                faces: Faces::Suit,
                ..Rules::default()
            },
            "suit",
        ),
        (&["--high-primes"][..], high, "high"),
    ];
    for (flags, rules, name) in cases {
        let pdf = dir.path().join(format!("{name}.pdf"));
        crib(flags, &pdf);
        let (pages, words) = words(&pdf);
        assert!(
            !pages.is_empty() && words.len() > 500,
            "{name}: {} words",
            words.len()
        );
        for w in &words {
            let (width, height) = pages[w.page - 1];
            // The size the box implies, to a hundredth of a point (the
            // box's coordinates are rounded to millionths).
            let size = (w.y_max - w.y_min) / BOX_PER_POINT;
            assert!(size >= 6.99, "{name}: {w:?} is {size:.2} pt");
            assert!(
                w.x_min >= 0.0 && w.y_min >= 0.0 && w.x_max <= width && w.y_max <= height,
                "{name}: {w:?} is outside the {width} × {height} page"
            );
        }
        // The title, wrapped if need be, is on the page.
        assert!(words.iter().any(|w| w.text == "crib:"), "{name}");

        // In the order drawn, with line breaks taken out, each cell reads
        // `best=calculation`.
        let drawn: String = pdftotext(&pdf, &["-raw"])
            .chars()
            .filter(|c| !c.is_whitespace())
            .collect();
        let a = analyze(rules, 3, &Budget::unlimited(), &|_| {}).unwrap();
        for h in &a.hands {
            if let Some(best) = &h.highest {
                let calc = best.witness.render(Style::UNICODE).replace(' ', "");
                let cell = format!("{}={calc}", best.prime);
                assert!(drawn.contains(&cell), "{name}: {} lacks {cell}", h.hand);
            }
        }

        let fonts = Process::new("pdffonts").arg(&pdf).output().unwrap();
        let fonts = String::from_utf8(fonts.stdout).unwrap();
        let rows: Vec<&str> = fonts.lines().skip(2).collect();
        assert_eq!(rows.len(), 2, "{fonts}");
        for row in rows {
            // name, type (two words), encoding, then emb sub uni.
            let cols: Vec<&str> = row.split_whitespace().collect();
            assert!(
                cols[0].ends_with("+DejaVuSans") || cols[0].ends_with("+DejaVuSans-Bold"),
                "{row}"
            );
            assert_eq!(&cols[4..7], ["yes", "yes", "yes"], "not embedded: {row}");
        }
    }
    // The best prime of 4 6 8, as the legend's reader looks for it.
    let (_, five) = words(&dir.path().join("five.pdf"));
    assert!(five.iter().any(|w| w.text == "3=(6×4)÷8"));
}

#[test]
fn the_svg_draws_the_same_sheet() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("crib.svg");
    crib(&["--paper", "letter"], &out);
    let svg = std::fs::read_to_string(&out).unwrap();
    assert!(svg.starts_with("<svg"));
    // US Letter is shorter than A4: the 55 rows of `five` take two pages,
    // one under the other with a gap of 24 pt.
    assert!(svg.contains("width=\"612pt\" height=\"1608pt\""));
    assert!(svg.contains(">2=6+4−8</text>"));
    assert!(svg.contains("Prime Time crib: five"));
}

#[test]
fn it_renders_legibly() {
    if !common::require(Tool::Pdf) {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let pdf = Path::new(env!("CARGO_MANIFEST_DIR")).join("reports/crib-rank.pdf");
    let status = Process::new("pdftoppm")
        .args(["-r", "100", "-png"])
        .arg(&pdf)
        .arg(dir.path().join("page"))
        .status()
        .unwrap();
    assert!(status.success());
    let mut pages: Vec<_> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    pages.sort();
    assert_eq!(pages.len(), 4, "{pages:?}");
    for page in &pages {
        // A4 at 100 dpi: 827 × 1170 pixels.
        let png = std::fs::read(page).unwrap();
        assert_eq!(&png[1..4], b"PNG");
        let w = u32::from_be_bytes(png[16..20].try_into().unwrap());
        let h = u32::from_be_bytes(png[20..24].try_into().unwrap());
        assert_eq!((w, h), (827, 1170));
    }
    // What a reader extracts is the text drawn.
    let text = pdftotext(&pdf, &[]);
    assert!(text.contains("Prime Time crib: rank"), "{text}");
    assert!(text.contains("page 4 of 4"));
}

#[test]
fn bad_output_paths_get_one_line() {
    let dir = tempfile::tempdir().unwrap();
    fails_with(
        prime_solve()
            .args(["crib", "--out"])
            .arg(dir.path().join("crib.png")),
        "end the file name in .pdf or .svg",
    );
    fails_with(
        prime_solve()
            .args(["crib", "--out"])
            .arg(dir.path().join("no/such/crib.pdf")),
        "cannot write",
    );
    fails_with(prime_solve().args(["crib"]), "--out");
}

#[test]
fn the_format_may_be_given_for_a_path_that_does_not_say_it() {
    let out = prime_solve()
        .args(["crib", "--out", "/dev/stdout", "--format", "svg"])
        .assert()
        .success();
    let svg = String::from_utf8(out.get_output().stdout.clone()).unwrap();
    assert!(
        svg.starts_with("<svg") || svg.starts_with("<?xml"),
        "{}",
        &svg[..svg.len().min(80)]
    );
    // The short forms every command's --out and --format have.
    let short = prime_solve()
        .args(["crib", "-o", "/dev/stdout", "-f", "svg"])
        .assert()
        .success();
    assert_eq!(short.get_output().stdout, out.get_output().stdout);
    fails_with(
        prime_solve().args(["crib", "--out", "/dev/stdout"]),
        "cannot tell the format of /dev/stdout: end the file name in .pdf or .svg, or give --format",
    );
}
