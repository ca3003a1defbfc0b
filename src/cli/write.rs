//! Writing files without ever replacing what a path points at, and writing
//! a run of reports so that a reader sees either all of the old one or all
//! of the new one.
//!
//! A path is followed through symbolic links (dangling ones too: their
//! target is created) to what it names. A regular file, or a new one, is
//! written under a temporary name beside it and renamed over it; a
//! character device or a FIFO (`/dev/null`, `/dev/stdout`, a named pipe) is
//! opened and written directly, and a block device or a socket is refused.
//!
//! A folder of reports (`analyze --out DIR`) is written in three steps:
//! every rule set's folder is built complete under a temporary name beside
//! its place (`DIR/.five.tmp-PID-N`), and top-level files such as the index
//! `README.md` under temporary names; then each folder is swapped with the
//! one in place (`renameat2` with `RENAME_EXCHANGE` where the file system
//! has it, else two renames); last, the top-level files are renamed into
//! place, which completes the run, and the old folders are removed. Until
//! that last step any failure, or SIGINT/SIGTERM/SIGHUP through
//! [`abandon`], swaps the folders back and removes every temporary, so the
//! folder holds the old run, untouched. Other files in `DIR` (other runs'
//! folders, tables) are left alone.
//!
//! It holds the writers (`write_file`, `write_files`) and the checks
//! before them (`check_file`, `check_folder`), what a path resolves to,
//! the staging, swapping and renaming of a run's steps, the one lock and
//! list of what is pending that [`abandon`] undoes on a signal, and the
//! clearing of temporaries that killed runs left.

use std::collections::BTreeMap;
use std::fs::{self, OpenOptions};
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Mutex, MutexGuard, PoisonError};
use std::time::Duration;

use prime_solve::report::File;

/// Writes `contents` to what `path` names (see the module documentation):
/// on failure a regular file at `path` is left as it was.
///
/// # Errors
/// The I/O error of the first step that failed, with the path.
pub(crate) fn write_file(path: &Path, contents: &[u8]) -> io::Result<()> {
    let call = WriteRun::new();
    let result = prepare(path, contents, &call).and_then(|step| step.commit(&call, true));
    call.finish(result)
}

/// Writes `files` under `dir`, creating `dir` (but not its parent). Each
/// file's first path component is a folder replaced as a whole (a rule
/// set's folder) or a top-level file; top-level files are renamed into
/// place last, in the order given. On failure `dir` is left as it was.
///
/// # Errors
/// The I/O error of the first step that failed; `dir` is then as it was.
pub(crate) fn write_files(dir: &Path, files: &[File]) -> io::Result<()> {
    let call = WriteRun::new();
    let (dir, created) = ensure_folder(dir)?;
    remove_dead_runs_temps(&dir);
    let written = write_into(&dir, files, &call);
    let result = call.finish(written);
    if result.is_err() && created {
        // Only removes the folder if nothing else was put in it meanwhile.
        let _ = fs::remove_dir(&dir);
    }
    result
}

fn write_into(dir: &Path, files: &[File], call: &WriteRun) -> io::Result<()> {
    // Group by first component: folders to swap whole, then plain files.
    let mut folders: BTreeMap<PathBuf, Vec<(PathBuf, &[u8])>> = BTreeMap::new();
    let mut order: Vec<PathBuf> = Vec::new();
    let mut top: Vec<(PathBuf, &[u8])> = Vec::new();
    for file in files {
        let mut parts = file.path.components();
        let first = parts.next().ok_or_else(|| invalid("an empty file name"))?;
        let first = PathBuf::from(first.as_os_str());
        let rest = parts.as_path().to_path_buf();
        if rest.as_os_str().is_empty() {
            top.push((first, file.contents.as_bytes()));
        } else {
            if !folders.contains_key(&first) {
                order.push(first.clone());
            }
            folders
                .entry(first)
                .or_default()
                .push((rest, file.contents.as_bytes()));
        }
    }
    // Check every place first, so that a file in the way is named before
    // anything is written.
    let mut places = Vec::new();
    for name in &order {
        let path = dir.join(name);
        match resolve(&path)? {
            Target::New(p) | Target::Folder(p) => places.push(p),
            _ => {
                return Err(io::Error::new(
                    io::ErrorKind::AlreadyExists,
                    format!("{} is in the way: a folder must go there", path.display()),
                ));
            }
        }
    }
    let mut steps = Vec::new();
    for (name, place) in order.iter().zip(places) {
        steps.push(stage_folder(&place, &folders[name], call)?);
    }
    // Several files side by side are swapped in like folders, so that a
    // failure or a signal before the last puts the old ones back: all of a
    // run's files or none (`simulate --out`).
    let several = top.len() > 1;
    for (name, contents) in &top {
        steps.push(match prepare(&dir.join(name), contents, call)? {
            Step::Rename { temp, target } if several => Step::Swap {
                staged: temp,
                target,
            },
            step => step,
        });
    }
    let last = steps.len().saturating_sub(1);
    for (i, step) in steps.into_iter().enumerate() {
        test_pause();
        step.commit(call, i == last)?;
    }
    Ok(())
}

/// Whether [`write_file`] could write to `path`, asked before a long run
/// so that a mistyped path is named at once, not after hours of work: an
/// error if `path` is a folder, a block device or a socket, or would go in
/// a folder that does not exist. (The write itself checks again.)
///
/// # Errors
/// What [`write_file`] would fail with first.
pub(crate) fn check_file(path: &Path) -> io::Result<()> {
    match file_target(path)? {
        Target::New(p) | Target::Regular(p) => may_write_in(&parent_of(&p)),
        _ => Ok(()),
    }
}

/// Whether [`write_files`] could write under `dir`, asked before a long
/// run: an error if something other than a folder is in the way, or `dir`
/// would go in a folder that does not exist.
///
/// # Errors
/// What [`write_files`] would fail with first.
pub(crate) fn check_folder(dir: &Path) -> io::Result<()> {
    match folder_target(dir)? {
        Target::New(p) => may_write_in(&parent_of(&p)),
        Target::Folder(p) => may_write_in(&p),
        _ => Ok(()),
    }
}

/// An error unless a file can be created in `folder` (a read-only file
/// system, a folder without write permission): found by creating a file
/// there and removing it, since root may write where the permissions
/// alone say it may not, and not where the file system is read-only. Its
/// name is one a later run removes if this one is killed meanwhile.
fn may_write_in(folder: &Path) -> io::Result<()> {
    let probe = folder.join(format!(".prime-solve-probe.tmp-{}-0", std::process::id()));
    // Held while the probe exists: a signal's clean-up (`abandon`) waits
    // for it to go.
    let _held = lock();
    match OpenOptions::new().write(true).create_new(true).open(&probe) {
        Ok(file) => {
            drop(file);
            let _ = fs::remove_file(&probe);
            Ok(())
        }
        // Left by this process's own earlier check: it could write there.
        Err(e) if e.kind() == io::ErrorKind::AlreadyExists => Ok(()),
        Err(e) => Err(io::Error::new(
            e.kind(),
            format!(
                "cannot create files in the folder {}: {e}",
                folder.display()
            ),
        )),
    }
}

/// What a file written to `path` goes to: a regular file, a device or FIFO,
/// or a new file in a folder that exists; else the error.
fn file_target(path: &Path) -> io::Result<Target> {
    match resolve(path)? {
        Target::Folder(p) => Err(io::Error::new(
            io::ErrorKind::AlreadyExists,
            format!("{} is a folder", p.display()),
        )),
        Target::New(p) => parent_must_exist(&p).map(|()| Target::New(p)),
        target => Ok(target),
    }
}

/// What a folder of reports at `dir` goes to: a folder, or a new one in a
/// folder that exists; else the error.
fn folder_target(dir: &Path) -> io::Result<Target> {
    match resolve(dir)? {
        Target::New(p) => parent_must_exist(&p).map(|()| Target::New(p)),
        target @ Target::Folder(_) => Ok(target),
        _ => Err(io::Error::new(
            io::ErrorKind::AlreadyExists,
            format!("{} is in the way: it is not a folder", dir.display()),
        )),
    }
}

/// An error unless the folder `path` would go in exists.
fn parent_must_exist(path: &Path) -> io::Result<()> {
    let parent = parent_of(path);
    if parent.is_dir() {
        Ok(())
    } else {
        Err(io::Error::new(
            io::ErrorKind::NotFound,
            format!("the folder {} does not exist", parent.display()),
        ))
    }
}

/// `dir` as a folder that exists, and whether this call created it.
fn ensure_folder(dir: &Path) -> io::Result<(PathBuf, bool)> {
    match folder_target(dir)? {
        Target::New(p) => match fs::create_dir(&p) {
            Ok(()) => Ok((p, true)),
            // Another run created it meanwhile: that is no error.
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists && p.is_dir() => Ok((p, false)),
            Err(e) => Err(at(&p, e)),
        },
        Target::Folder(p) | Target::Regular(p) | Target::Direct(p) => Ok((p, false)),
    }
}

/// What a path names once symbolic links are followed.
#[derive(Debug, PartialEq, Eq)]
enum Target {
    /// Nothing yet: a file or folder is created here.
    New(PathBuf),
    /// A regular file, replaced by renaming a temporary file over it.
    Regular(PathBuf),
    Folder(PathBuf),
    /// A character device or FIFO, or a path through `/proc` such as
    /// `/dev/stdout`: opened and written as it is.
    Direct(PathBuf),
}

fn resolve(path: &Path) -> io::Result<Target> {
    let mut path = path.to_path_buf();
    for _ in 0..40 {
        let meta = match fs::symlink_metadata(&path) {
            Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(Target::New(path)),
            Err(e) => return Err(at(&path, e)),
            Ok(meta) => meta,
        };
        let kind = meta.file_type();
        if kind.is_symlink() && names_a_descriptor(&path) {
            // /dev/fd/N, /proc/self/fd/N: the kernel's link to what the
            // descriptor has open (a file the shell redirected, a pipe of
            // `>(…)`), whose name is only a label: written through.
            return Ok(Target::Direct(path));
        }
        if kind.is_symlink() {
            let link = fs::read_link(&path).map_err(|e| at(&path, e))?;
            if link.starts_with("/proc") {
                // /dev/stdout → /proc/self/fd/1 → "pipe:[…]": the kernel
                // follows these, not the names they print.
                return Ok(Target::Direct(path));
            }
            path = parent_of(&path).join(link);
        } else if kind.is_file() {
            return Ok(Target::Regular(path));
        } else if kind.is_dir() {
            return Ok(Target::Folder(path));
        } else {
            return special(path, kind);
        }
    }
    Err(io::Error::other(format!(
        "{}: too many levels of symbolic links",
        path.display()
    )))
}

/// Whether `path` is an open descriptor's entry: `/dev/fd/N` or
/// `/proc/PID/fd/N` (`self`, `thread-self` or a number).
fn names_a_descriptor(path: &Path) -> bool {
    let Some(dir) = path.parent() else {
        return false;
    };
    let number = path
        .file_name()
        .and_then(|n| n.to_str())
        .is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()));
    number
        && (dir == Path::new("/dev/fd")
            || dir.file_name().is_some_and(|f| f == "fd")
                && dir.parent().and_then(Path::parent) == Some(Path::new("/proc")))
}

/// The standard stream `target` names, if any (`/dev/stdout`, `/dev/fd/1`,
/// `/proc/self/fd/1`, and 2 for stderr): written through this process's
/// own descriptor, whose offset the shell shares (`(echo a; prime-solve
/// table -o /dev/stdout; echo b) > f` keeps all three in order), not
/// opened anew.
fn standard_stream(target: &Path) -> Option<u8> {
    let name = target.to_str()?;
    match name {
        "/dev/stdout" | "/dev/fd/1" | "/proc/self/fd/1" => Some(1),
        "/dev/stderr" | "/dev/fd/2" | "/proc/self/fd/2" => Some(2),
        _ => None,
    }
}

#[cfg(unix)]
fn special(path: PathBuf, kind: fs::FileType) -> io::Result<Target> {
    use std::os::unix::fs::FileTypeExt;
    let what = if kind.is_block_device() {
        "a block device"
    } else if kind.is_socket() {
        "a socket"
    } else {
        return Ok(Target::Direct(path));
    };
    Err(io::Error::new(
        io::ErrorKind::InvalidInput,
        format!("{} is {what}: refusing to write to it", path.display()),
    ))
}

#[cfg(not(unix))]
fn special(path: PathBuf, _: fs::FileType) -> io::Result<Target> {
    Ok(Target::Direct(path))
}

/// One write made ready, to be committed.
enum Step<'a> {
    /// Rename a complete temporary file over `target`.
    Rename { temp: PathBuf, target: PathBuf },
    /// Swap a complete temporary folder with the folder at `target`.
    Swap { staged: PathBuf, target: PathBuf },
    /// Write to a device or FIFO.
    Direct { target: PathBuf, contents: &'a [u8] },
}

fn prepare<'a>(path: &Path, contents: &'a [u8], call: &WriteRun) -> io::Result<Step<'a>> {
    let target = match file_target(path)? {
        Target::Direct(target) => return Ok(Step::Direct { target, contents }),
        Target::Regular(p) | Target::New(p) | Target::Folder(p) => p,
    };
    let temp = temp_name(&target, "tmp", call.0)?;
    remove_dead_temps_of(&temp);
    let mut pending = lock();
    pending.temps.push((call.0, temp.clone()));
    remove_stale(&temp);
    // Named by the file the user gave, not the hidden temporary one.
    write_new(&temp, contents).map_err(|e| beside(&target, e))?;
    // Keep the permissions of the file it replaces.
    if let Ok(meta) = fs::metadata(&target) {
        let _ = fs::set_permissions(&temp, meta.permissions());
    }
    Ok(Step::Rename { temp, target })
}

/// Builds the folder that goes to `place` under a temporary name beside it.
fn stage_folder<'a>(
    place: &Path,
    files: &[(PathBuf, &[u8])],
    call: &WriteRun,
) -> io::Result<Step<'a>> {
    let staged = temp_name(place, "tmp", call.0)?;
    let mut pending = lock();
    pending.temps.push((call.0, staged.clone()));
    remove_stale(&staged);
    fs::create_dir(&staged).map_err(|e| beside(place, e))?;
    for (rel, contents) in files {
        let path = staged.join(rel);
        let parent = parent_of(&path);
        // Named by where the file goes, not the hidden folder it is made in.
        fs::create_dir_all(&parent).map_err(|e| beside(&place.join(rel), e))?;
        write_new(&path, contents).map_err(|e| beside(&place.join(rel), e))?;
    }
    Ok(Step::Swap {
        staged,
        target: place.to_path_buf(),
    })
}

/// Creates `path`, which must not exist, holding `contents`.
fn write_new(path: &Path, contents: &[u8]) -> io::Result<()> {
    OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(path)?
        .write_all(contents)
}

/// An error writing the temporary file or folder that goes to `target`,
/// named by `target`: the user never gave the temporary name.
fn beside(target: &Path, e: io::Error) -> io::Error {
    io::Error::new(
        e.kind(),
        format!(
            "cannot write {} (a new copy beside it first): {e}",
            target.display()
        ),
    )
}

impl Step<'_> {
    /// Puts the write in place. With `last`, this completes the call: the
    /// swapped folders can no longer be swapped back.
    fn commit(self, call: &WriteRun, last: bool) -> io::Result<()> {
        match self {
            Step::Direct { target, contents } => {
                // Not under the lock: opening a FIFO waits for a reader,
                // and a signal must still be able to end the process.
                direct(&target, contents)?;
                if last {
                    lock().swaps.retain(|s| s.call != call.0);
                }
                Ok(())
            }
            Step::Rename { temp, target } => {
                let mut pending = lock();
                fs::rename(&temp, &target).map_err(|e| at(&target, e))?;
                pending.temps.retain(|(_, t)| *t != temp);
                if last {
                    pending.swaps.retain(|s| s.call != call.0);
                }
                Ok(())
            }
            Step::Swap { staged, target } => {
                let mut pending = lock();
                let swap = swap_in(&staged, &target, call.0, &mut pending)?;
                pending.swaps.push(swap);
                if last {
                    pending.swaps.retain(|s| s.call != call.0);
                }
                Ok(())
            }
        }
    }
}

fn direct(target: &Path, contents: &[u8]) -> io::Result<()> {
    let mut out: Box<dyn Write> = match standard_stream(target) {
        Some(1) => Box::new(io::stdout().lock()),
        Some(_) => Box::new(io::stderr().lock()),
        None => {
            // A regular file reached through /proc (/dev/stdout redirected
            // to a file) is opened anew at offset 0: appending is right
            // after both `>` (the file is empty) and `>>`.
            let regular = fs::metadata(target).is_ok_and(|m| m.is_file());
            let file = OpenOptions::new()
                .write(true)
                .append(regular)
                .open(target)
                .map_err(|e| at(target, e))?;
            Box::new(file)
        }
    };
    out.write_all(contents)
        .and_then(|()| out.flush())
        .map_err(|e| at(target, e))
}

/// A folder put in place, and how to put the old one back.
struct Swap {
    call: u64,
    target: PathBuf,
    /// The temporary folder: after an exchange it holds the old folder.
    staged: PathBuf,
    exchanged: bool,
    /// Without an exchange, where the old folder was moved, if any.
    old: Option<PathBuf>,
}

impl Swap {
    fn undo(&self) -> io::Result<()> {
        if self.exchanged {
            return exchange(&self.staged, &self.target)
                .unwrap_or_else(|| Err(io::Error::other("the file system no longer exchanges")));
        }
        fs::rename(&self.target, &self.staged)?;
        match &self.old {
            Some(old) => fs::rename(old, &self.target),
            None => Ok(()),
        }
    }
}

/// Puts the folder `staged` at `target`: exchanged with an existing folder,
/// else renamed.
fn swap_in(staged: &Path, target: &Path, call: u64, pending: &mut Pending) -> io::Result<Swap> {
    let swap = |exchanged, old| Swap {
        call,
        target: target.to_path_buf(),
        staged: staged.to_path_buf(),
        exchanged,
        old,
    };
    // Another run may create or replace the folder meanwhile: try again.
    for _ in 0..8 {
        match fs::symlink_metadata(target) {
            Err(e) if e.kind() == io::ErrorKind::NotFound => match fs::rename(staged, target) {
                Ok(()) => return Ok(swap(false, None)),
                Err(e) if is_taken(&e) => continue,
                Err(e) => return Err(at(target, e)),
            },
            Err(e) => return Err(at(target, e)),
            Ok(meta) if meta.is_dir() || (meta.is_file() && is_file(staged)) => {
                match exchange(staged, target) {
                    Some(Ok(())) => return Ok(swap(true, None)),
                    Some(Err(e)) if e.kind() == io::ErrorKind::NotFound => continue,
                    Some(Err(e)) => return Err(at(target, e)),
                    None => {
                        let old = temp_name(target, "old", call)?;
                        pending.temps.push((call, old.clone()));
                        return swap_by_renames(staged, target, &old)
                            .map(|()| swap(false, Some(old)));
                    }
                }
            }
            Ok(_) => {
                return Err(io::Error::new(
                    io::ErrorKind::AlreadyExists,
                    format!("{} is in the way: a folder must go there", target.display()),
                ));
            }
        }
    }
    Err(io::Error::other(format!(
        "{} keeps changing: is another run writing there?",
        target.display()
    )))
}

/// Whether `path` is a regular file (not followed through a link).
fn is_file(path: &Path) -> bool {
    fs::symlink_metadata(path).is_ok_and(|m| m.is_file())
}

/// Where renaming a folder found one in its place.
fn is_taken(e: &io::Error) -> bool {
    matches!(
        e.kind(),
        io::ErrorKind::AlreadyExists | io::ErrorKind::DirectoryNotEmpty
    )
}

/// The swap where the file system cannot exchange: the old folder moves to
/// `old`, the new one into place (the place is empty in between).
fn swap_by_renames(staged: &Path, target: &Path, old: &Path) -> io::Result<()> {
    fs::rename(target, old).map_err(|e| at(target, e))?;
    fs::rename(staged, target).map_err(|e| {
        let _ = fs::rename(old, target);
        at(target, e)
    })
}

/// Exchanges two paths atomically; `None` where the file system or the
/// system cannot.
#[cfg(target_os = "linux")]
fn exchange(a: &Path, b: &Path) -> Option<io::Result<()>> {
    use rustix::fs::{CWD, RenameFlags, renameat_with};
    use rustix::io::Errno;
    match renameat_with(CWD, a, CWD, b, RenameFlags::EXCHANGE) {
        Ok(()) => Some(Ok(())),
        Err(e) if [Errno::INVAL, Errno::NOSYS, Errno::OPNOTSUPP].contains(&e) => None,
        Err(e) => Some(Err(e.into())),
    }
}

#[cfg(not(target_os = "linux"))]
fn exchange(_: &Path, _: &Path) -> Option<io::Result<()>> {
    None
}

/// What is on disk and not final yet: temporaries to remove, and folders
/// swapped in that go back if the run does not complete. Each entry is
/// tagged with the call that made it.
struct Pending {
    temps: Vec<(u64, PathBuf)>,
    swaps: Vec<Swap>,
}

static PENDING: Mutex<Pending> = Mutex::new(Pending {
    temps: Vec::new(),
    swaps: Vec::new(),
});

fn lock() -> MutexGuard<'static, Pending> {
    PENDING.lock().unwrap_or_else(PoisonError::into_inner)
}

impl Pending {
    /// Swaps back and removes the temporaries of calls `which` accepts.
    fn undo(&mut self, which: impl Fn(u64) -> bool) {
        let (mine, others): (Vec<Swap>, Vec<Swap>) =
            self.swaps.drain(..).partition(|s| which(s.call));
        self.swaps = others;
        for swap in mine.iter().rev() {
            let _ = swap.undo();
        }
        self.remove_temps(which);
    }

    fn remove_temps(&mut self, which: impl Fn(u64) -> bool) {
        self.temps.retain(|(call, path)| {
            if !which(*call) {
                return true;
            }
            remove_stale(path);
            false
        });
    }
}

/// Ends every unfinished write of this process, as for a signal: folders
/// already swapped in go back, temporaries are removed. The returned guard
/// keeps any other write from going on; hold it until the process ends.
pub(crate) fn abandon() -> Abandoned {
    let mut pending = lock();
    pending.undo(|_| true);
    Abandoned(pending)
}

/// Holds writes off until dropped (see [`abandon`]).
pub(crate) struct Abandoned(#[allow(dead_code)] MutexGuard<'static, Pending>);

/// One call of `write_file` or `write_files`: its entries in `Pending`.
struct WriteRun(u64);

impl WriteRun {
    fn new() -> WriteRun {
        static NEXT: AtomicU64 = AtomicU64::new(0);
        WriteRun(NEXT.fetch_add(1, Ordering::Relaxed))
    }

    /// On failure, undoes this call; in any case removes its temporaries
    /// (after success, the old folders).
    fn finish(self, result: io::Result<()>) -> io::Result<()> {
        let mut pending = lock();
        if result.is_err() {
            pending.undo(|c| c == self.0);
        } else {
            pending.remove_temps(|c| c == self.0);
        }
        result
    }
}

/// Removes what an earlier process with this process's id left at a
/// temporary name (it was killed before it could).
fn remove_stale(temp: &Path) {
    match fs::symlink_metadata(temp) {
        Ok(m) if m.is_dir() => drop(fs::remove_dir_all(temp)),
        Ok(_) => drop(fs::remove_file(temp)),
        Err(_) => {}
    }
}

/// Removes what runs killed outright (SIGKILL, a power cut) left in `dir`:
/// the hidden `.NAME.tmp-PID-N` and `.NAME.old-PID-N` entries of processes
/// that no longer run. A process that runs, whatever it is, keeps its
/// entries. Best effort: what cannot be read or removed stays.
fn remove_dead_runs_temps(dir: &Path) {
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let name = entry.file_name();
        let Some(pid) = name.to_str().and_then(stale_pid) else {
            continue;
        };
        if pid == std::process::id() || Path::new("/proc").join(pid.to_string()).exists() {
            continue;
        }
        remove_stale(&entry.path());
    }
}

/// Removes the temporaries that runs killed outright (SIGKILL, a crash)
/// left of the same file as `temp` is one of: `.NAME.tmp-PID-N` beside it
/// with the same NAME, of a process that is gone. Temporaries of other
/// files, which a folder like `$HOME` may hold from other programs, are
/// left alone.
fn remove_dead_temps_of(temp: &Path) {
    let Some(own) = temp.file_name().and_then(|n| n.to_str()) else {
        return;
    };
    let Some((prefix, _)) = own.rsplit_once(".tmp-") else {
        return;
    };
    let Ok(entries) = fs::read_dir(parent_of(temp)) else {
        return;
    };
    for entry in entries.flatten() {
        let name = entry.file_name();
        let Some(name) = name.to_str() else {
            continue;
        };
        if name.rsplit_once(".tmp-").is_none_or(|(p, _)| p != prefix) {
            continue;
        }
        let Some(pid) = stale_pid(name) else {
            continue;
        };
        if pid == std::process::id() || Path::new("/proc").join(pid.to_string()).exists() {
            continue;
        }
        remove_stale(&entry.path());
    }
}

/// The process id in a temporary name this module makes, `.NAME.tmp-PID-N`
/// or `.NAME.old-PID-N`; `None` for any other name.
fn stale_pid(name: &str) -> Option<u32> {
    let rest = name.strip_prefix('.')?;
    let (_, tail) = rest
        .rsplit_once(".tmp-")
        .or_else(|| rest.rsplit_once(".old-"))?;
    let (pid, call) = tail.split_once('-')?;
    call.parse::<u64>().ok()?;
    pid.parse().ok()
}

/// `.NAME.KIND-PID-CALL` beside `path`.
fn temp_name(path: &Path, kind: &str, call: u64) -> io::Result<PathBuf> {
    let name = path
        .file_name()
        .ok_or_else(|| invalid(&format!("{} is not a file name", path.display())))?;
    let tail = format!(".{kind}-{}-{}", std::process::id(), call);
    // Within a file name's 255 bytes: a long name is cut (the tail alone
    // tells the temporary files apart).
    let room = NAME_MAX.saturating_sub(1 + tail.len());
    let mut temp = std::ffi::OsString::from(".");
    temp.push(cut_name(name, room));
    temp.push(tail);
    Ok(parent_of(path).join(temp))
}

/// The longest file name most file systems take, in bytes.
const NAME_MAX: usize = 255;

/// `name`'s first `room` bytes at most.
#[cfg(unix)]
fn cut_name(name: &std::ffi::OsStr, room: usize) -> std::ffi::OsString {
    use std::os::unix::ffi::OsStrExt;
    let bytes = name.as_bytes();
    std::ffi::OsStr::from_bytes(&bytes[..bytes.len().min(room)]).to_os_string()
}

#[cfg(not(unix))]
fn cut_name(name: &std::ffi::OsStr, _room: usize) -> std::ffi::OsString {
    name.to_os_string()
}

fn parent_of(path: &Path) -> PathBuf {
    match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    }
}

/// The error with the path it concerns, of the same kind.
fn at(path: &Path, e: io::Error) -> io::Error {
    io::Error::new(e.kind(), format!("{}: {e}", path.display()))
}

fn invalid(message: &str) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidInput, message.to_string())
}

/// Test-only hook: with `PRIME_SOLVE_TEST_PAUSE_MS` set, sleeps that long
/// before each step that puts a file or folder in place, so that a test
/// can interrupt a run between any two of them. Not for users.
fn test_pause() {
    static PAUSE: std::sync::OnceLock<Option<Duration>> = std::sync::OnceLock::new();
    let pause = PAUSE.get_or_init(|| {
        std::env::var("PRIME_SOLVE_TEST_PAUSE_MS")
            .ok()
            .and_then(|v| v.parse().ok())
            .map(Duration::from_millis)
    });
    if let Some(pause) = pause {
        std::thread::sleep(*pause);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn temporaries_of_runs_killed_outright_are_cleared() {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("out");
        fs::create_dir(&out).unwrap();
        // A process id above the kernel's largest cannot be running.
        let max: u32 = fs::read_to_string("/proc/sys/kernel/pid_max")
            .map_or(4_194_304, |t| t.trim().parse().unwrap());
        let dead = max + 1;
        let own = std::process::id();
        fs::create_dir(out.join(format!(".five.tmp-{dead}-0"))).unwrap();
        fs::write(out.join(format!(".five.tmp-{dead}-0/hands.csv")), "x").unwrap();
        fs::write(out.join(format!(".README.md.old-{dead}-3")), "x").unwrap();
        let kept = [
            format!(".other.tmp-{own}-0"),
            ".five.tmp-notapid-0".to_string(),
            "notes.tmp-1-2".to_string(),
        ];
        for k in &kept {
            fs::write(out.join(k), "x").unwrap();
        }
        write_files(&out, &[File::new("README.md", "new".into())]).unwrap();
        let mut names: Vec<String> = fs::read_dir(&out)
            .unwrap()
            .map(|e| e.unwrap().file_name().into_string().unwrap())
            .collect();
        names.sort();
        let mut want: Vec<String> = kept.to_vec();
        want.push("README.md".into());
        want.sort();
        assert_eq!(names, want);
    }

    /// A file's temporary left by a killed run goes with the next write of
    /// that file; other files' temporaries stay.
    #[test]
    fn a_single_files_temporary_left_by_a_killed_run_is_cleared() {
        let dir = tempfile::tempdir().unwrap();
        let max: u32 = fs::read_to_string("/proc/sys/kernel/pid_max")
            .map_or(4_194_304, |t| t.trim().parse().unwrap());
        let dead = max + 1;
        let left = dir.path().join(format!(".table.md.tmp-{dead}-0"));
        let other = dir.path().join(format!(".notes.md.tmp-{dead}-0"));
        let longer = dir.path().join(format!(".table.md.bak.tmp-{dead}-0"));
        for p in [&left, &other, &longer] {
            fs::write(p, "half").unwrap();
        }
        write_file(&dir.path().join("table.md"), b"new").unwrap();
        assert!(!left.exists(), "the dead run's temporary of table.md goes");
        assert!(other.exists() && longer.exists(), "other files' stay");
        assert_eq!(
            fs::read_to_string(dir.path().join("table.md")).unwrap(),
            "new"
        );
    }

    /// Every entry below `dir` (relative path, contents; folders empty).
    fn tree(dir: &Path) -> BTreeMap<PathBuf, String> {
        fn walk(root: &Path, dir: &Path, out: &mut BTreeMap<PathBuf, String>) {
            for entry in fs::read_dir(dir).unwrap() {
                let path = entry.unwrap().path();
                let rel = path.strip_prefix(root).unwrap().to_path_buf();
                let kind = fs::symlink_metadata(&path).unwrap().file_type();
                if kind.is_symlink() {
                    let link = fs::read_link(&path).unwrap();
                    out.insert(rel, format!("-> {}", link.display()));
                } else if kind.is_dir() {
                    out.insert(rel, String::new());
                    walk(root, &path, out);
                } else {
                    out.insert(rel, fs::read_to_string(&path).unwrap_or_default());
                }
            }
        }
        let mut out = BTreeMap::new();
        walk(dir, dir, &mut out);
        out
    }

    fn run(tag: &str) -> Vec<File> {
        ["five", "rank"]
            .iter()
            .flat_map(|f| {
                [
                    File::new(format!("{f}/hands.csv"), format!("{tag} {f} hands")),
                    File::new(format!("{f}/summary.md"), format!("{tag} {f} summary")),
                ]
            })
            .chain([File::new("README.md", format!("{tag} index"))])
            .collect()
    }

    #[test]
    fn all_or_nothing() {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("out");
        write_files(&out, &[File::new("README.md", "old".into())]).unwrap();
        // A file stands where a folder must go: the second file cannot be
        // written, so the first must not change either.
        fs::write(out.join("rank"), "in the way").unwrap();
        let err = write_files(
            &out,
            &[
                File::new("README.md", "new".into()),
                File::new("rank/hands.csv", "x".into()),
            ],
        )
        .unwrap_err();
        assert!(err.to_string().contains("rank is in the way"), "{err}");
        assert_eq!(fs::read_to_string(out.join("README.md")).unwrap(), "old");
        let names: Vec<_> = fs::read_dir(&out)
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(names.len(), 2, "{names:?}");
    }

    #[test]
    fn a_missing_parent_is_an_error() {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("no/such/folder");
        let err = write_files(&out, &[File::new("a", String::new())]).unwrap_err();
        assert!(err.to_string().contains("does not exist"));
        let err = write_file(&out.join("a"), b"").unwrap_err();
        assert!(err.to_string().contains("does not exist"));
    }

    #[test]
    fn a_failed_run_removes_the_folder_it_created() {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("new");
        // A name no file system takes fails after the folder is made and
        // a rule set's folder is staged.
        let files = [
            File::new("five/hands.csv", "x".into()),
            File::new("READ\0ME.md", "x".into()),
        ];
        assert!(write_files(&out, &files).is_err());
        assert!(!out.exists());
    }

    #[test]
    fn folders_are_replaced_whole_and_other_files_kept() {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path();
        write_files(out, &run("old")).unwrap();
        fs::write(out.join("five/stale.txt"), "from an older version").unwrap();
        fs::write(out.join("table-five.md"), "a table").unwrap();
        fs::create_dir(out.join("other-run")).unwrap();
        write_files(out, &run("new")).unwrap();
        let got = tree(out);
        let mut want = BTreeMap::new();
        for f in run("new") {
            want.insert(f.path, f.contents);
        }
        for folder in ["five", "rank", "other-run"] {
            want.insert(PathBuf::from(folder), String::new());
        }
        want.insert(PathBuf::from("table-five.md"), "a table".into());
        assert_eq!(got, want);
    }

    #[test]
    fn a_failure_after_the_swaps_puts_the_old_folders_back() {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path();
        write_files(out, &run("old")).unwrap();
        let before = tree(out);
        // The index cannot be written, and it is written after every
        // folder has been swapped in.
        fs::remove_file(out.join("README.md")).unwrap();
        std::os::unix::fs::symlink("/dev/full", out.join("README.md")).unwrap();
        let mut before_link = before.clone();
        before_link.remove(Path::new("README.md"));
        let err = write_files(out, &run("new")).unwrap_err();
        assert!(err.to_string().contains("/dev/full"), "{err}");
        let mut after = tree(out);
        after.remove(Path::new("README.md"));
        assert_eq!(after, before_link);
        // A new folder swapped in is taken away again too.
        let fresh = dir.path().join("fresh");
        fs::create_dir(&fresh).unwrap();
        std::os::unix::fs::symlink("/dev/full", fresh.join("README.md")).unwrap();
        assert!(write_files(&fresh, &run("new")).is_err());
        assert_eq!(
            tree(&fresh).into_keys().collect::<Vec<_>>(),
            [PathBuf::from("README.md")]
        );
    }

    #[test]
    fn the_swap_without_exchange_can_be_undone() {
        let dir = tempfile::tempdir().unwrap();
        let (staged, target, old) = (
            dir.path().join(".five.tmp"),
            dir.path().join("five"),
            dir.path().join(".five.old"),
        );
        fs::create_dir(&staged).unwrap();
        fs::write(staged.join("a"), "new").unwrap();
        fs::create_dir(&target).unwrap();
        fs::write(target.join("a"), "old").unwrap();
        swap_by_renames(&staged, &target, &old).unwrap();
        assert_eq!(fs::read_to_string(target.join("a")).unwrap(), "new");
        assert_eq!(fs::read_to_string(old.join("a")).unwrap(), "old");
        let swap = Swap {
            call: 0,
            target: target.clone(),
            staged: staged.clone(),
            exchanged: false,
            old: Some(old.clone()),
        };
        swap.undo().unwrap();
        assert_eq!(fs::read_to_string(target.join("a")).unwrap(), "old");
        assert_eq!(fs::read_to_string(staged.join("a")).unwrap(), "new");
        assert!(!old.exists());
    }

    #[test]
    fn concurrent_writes_into_a_new_folder_all_succeed() {
        for round in 0..5 {
            let dir = tempfile::tempdir().unwrap();
            let out = dir.path().join(format!("out{round}"));
            let start = std::sync::Barrier::new(6);
            std::thread::scope(|s| {
                let handles: Vec<_> = (0..6)
                    .map(|_| {
                        s.spawn(|| {
                            start.wait();
                            write_files(&out, &run("new"))
                        })
                    })
                    .collect();
                for h in handles {
                    h.join().unwrap().unwrap();
                }
            });
            assert_eq!(tree(&out).len(), 7);
        }
    }

    #[test]
    fn symlinks_are_followed_to_their_target() {
        let dir = tempfile::tempdir().unwrap();
        let d = dir.path();
        fs::create_dir(d.join("sub")).unwrap();
        // Relative to the link's own folder, through two links.
        std::os::unix::fs::symlink("sub/hop", d.join("link")).unwrap();
        std::os::unix::fs::symlink("t.md", d.join("sub/hop")).unwrap();
        assert_eq!(
            resolve(&d.join("link")).unwrap(),
            Target::New(d.join("sub/t.md"))
        );
        write_file(&d.join("link"), b"text").unwrap();
        assert_eq!(fs::read_to_string(d.join("sub/t.md")).unwrap(), "text");
        assert!(fs::symlink_metadata(d.join("link")).unwrap().is_symlink());
        // A loop is an error, not a hang.
        std::os::unix::fs::symlink("b", d.join("a")).unwrap();
        std::os::unix::fs::symlink("a", d.join("b")).unwrap();
        let err = write_file(&d.join("a"), b"x").unwrap_err();
        assert!(err.to_string().contains("symbolic links"), "{err}");
        assert_eq!(
            resolve(Path::new("/dev/stdout")).unwrap(),
            Target::Direct(PathBuf::from("/dev/stdout"))
        );
    }

    #[test]
    fn a_symlinked_folder_is_replaced_where_it_is() {
        let dir = tempfile::tempdir().unwrap();
        let (out, elsewhere) = (dir.path().join("out"), dir.path().join("elsewhere"));
        fs::create_dir_all(elsewhere.join("five-real")).unwrap();
        fs::write(elsewhere.join("five-real/old.txt"), "old").unwrap();
        fs::create_dir(&out).unwrap();
        std::os::unix::fs::symlink("../elsewhere/five-real", out.join("five")).unwrap();
        write_files(&out, &run("new")).unwrap();
        assert!(fs::symlink_metadata(out.join("five")).unwrap().is_symlink());
        let real = tree(&elsewhere.join("five-real"));
        assert_eq!(real.keys().collect::<Vec<_>>(), ["hands.csv", "summary.md"]);
        assert_eq!(real[Path::new("summary.md")], "new five summary");
        assert_eq!(tree(&elsewhere).len(), 3);
        assert_eq!(tree(&out).len(), 5);
    }

    #[test]
    fn a_replaced_file_keeps_its_permissions() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("t.md");
        fs::write(&path, "old").unwrap();
        fs::set_permissions(&path, fs::Permissions::from_mode(0o640)).unwrap();
        write_file(&path, b"new").unwrap();
        let mode = fs::metadata(&path).unwrap().permissions().mode();
        assert_eq!(mode & 0o777, 0o640);
        assert_eq!(fs::read_dir(dir.path()).unwrap().count(), 1);
    }
}
