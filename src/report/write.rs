//! Writing a set of report files all or nothing: every file goes to a
//! temporary name first, and only when all are written are they renamed
//! into place.

use std::fs;
use std::io;
use std::path::{Path, PathBuf};

use super::File;

/// Writes `files` under `dir`, creating `dir` (but not its parent) and the
/// files' sub-folders. On any failure the files already in `dir` are left
/// as they were and the temporary files are removed.
pub fn write_files(dir: &Path, files: &[File]) -> io::Result<()> {
    if !dir.is_dir() {
        let parent = match dir.parent() {
            Some(p) if !p.as_os_str().is_empty() => p,
            _ => Path::new("."),
        };
        if !parent.is_dir() {
            return Err(io::Error::new(
                io::ErrorKind::NotFound,
                format!("the folder {} does not exist", parent.display()),
            ));
        }
        fs::create_dir(dir)?;
    }
    let suffix = format!(".tmp-{}", std::process::id());
    let mut written: Vec<(PathBuf, PathBuf)> = Vec::new();
    let staged = files.iter().try_for_each(|file| {
        let target = dir.join(&file.path);
        if let Some(parent) = target.parent() {
            fs::create_dir_all(parent)?;
        }
        let mut temp = target.clone().into_os_string();
        temp.push(&suffix);
        let temp = PathBuf::from(temp);
        fs::write(&temp, &file.contents)?;
        written.push((temp, target));
        Ok(())
    });
    let result = staged.and_then(|()| {
        written
            .iter()
            .try_for_each(|(temp, target)| fs::rename(temp, target))
    });
    if result.is_err() {
        for (temp, _) in &written {
            let _ = fs::remove_file(temp);
        }
    }
    result
}

#[cfg(test)]
mod tests {
    use super::*;

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
        );
        assert!(err.is_err());
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
    }
}
