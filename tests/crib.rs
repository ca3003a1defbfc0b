//! `prime-solve crib`: the committed sheets are what the command writes,
//! the PDF holds real text, and the page renders.

mod common;

use std::path::Path;
use std::process::Command as Process;

use common::{fails_with, prime_solve};

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

#[test]
fn the_pdf_has_real_text_and_the_right_pages() {
    let five = String::from_utf8(committed("crib-five.pdf")).unwrap();
    let rank = String::from_utf8(committed("crib-rank.pdf")).unwrap();
    assert!(five.starts_with("%PDF-1.7"));
    assert_eq!(five.matches("/Type /Page\n").count(), 1);
    assert_eq!(rank.matches("/Type /Page\n").count(), 2);
    // Text in the standard fonts, not outlines: the quickest call of 4 6 8.
    assert!(five.contains("/BaseFont /Helvetica"));
    assert!(five.contains("(2=6+4-8) Tj"));
    // The two failing hands under rank are marked, and named in the legend.
    assert_eq!(rank.matches("(none) Tj").count(), 2);
    assert!(rank.contains("5 8 12, 9 12 12"));
    assert!(!five.contains("(none) Tj"));
    assert!(!five.contains("CreationDate"));
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
    // pdftoppm and pdftotext come with Debian's poppler-utils.
    if Process::new("pdftoppm").arg("-v").output().is_err() {
        eprintln!("pdftoppm is not installed (apt-get install poppler-utils): not rendered");
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
    assert_eq!(pages.len(), 2, "{pages:?}");
    for page in &pages {
        // A4 at 100 dpi: 827 × 1170 pixels.
        let png = std::fs::read(page).unwrap();
        assert_eq!(&png[1..4], b"PNG");
        let w = u32::from_be_bytes(png[16..20].try_into().unwrap());
        let h = u32::from_be_bytes(png[20..24].try_into().unwrap());
        assert_eq!((w, h), (827, 1170));
    }
    // What a reader extracts is the text drawn.
    let text = Process::new("pdftotext")
        .arg(&pdf)
        .arg("-")
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&text.stdout);
    assert!(text.contains("Prime Time crib: rank"), "{text}");
    assert!(text.contains("page 2 of 2"));
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
