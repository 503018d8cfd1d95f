//! One search's result ([`Record`]) and its CSV form: one row per search,
//! every [`Stats`] field a column.

use crate::grid::{model_label, Job};
use crate::Error;
use std::collections::HashMap;
use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::Path;
use std::sync::Mutex;
use stockman::{Stats, Value};

/// What one search of an experiment found and measured.
#[derive(Clone, Debug, PartialEq)]
pub struct Record {
    /// The job's number in the grid.
    pub job: u64,
    /// The algorithm's name.
    pub algorithm: String,
    /// `iid` or `incremental`.
    pub model: String,
    /// `random` or the probability of the best child first.
    pub order: String,
    /// Branching factor.
    pub width: u32,
    /// Depth in plies.
    pub depth: u32,
    /// The tree's seed.
    pub seed: u64,
    /// The root's value (none for BNS and for a search that stopped).
    pub value: Option<Value>,
    /// The best move's index at the root.
    pub best_move: Option<usize>,
    /// Why the search stopped without an answer.
    pub error: Option<String>,
    /// Every counter of the search.
    pub stats: Stats,
}

impl Record {
    /// A record for `job` with the given result, before any counter is set.
    pub fn new(job: &Job) -> Record {
        Record {
            job: job.index,
            algorithm: job.label(),
            model: model_label(job.tree.model).to_string(),
            order: job.tree.order.label(),
            width: job.tree.width,
            depth: job.tree.depth,
            seed: job.tree.seed,
            value: None,
            best_move: None,
            error: None,
            stats: Stats::default(),
        }
    }

    /// Whether this record answers `job` (same number, algorithm and tree).
    pub fn matches(&self, job: &Job) -> bool {
        let r = Record::new(job);
        (
            self.job,
            &self.algorithm,
            &self.model,
            &self.order,
            self.width,
            self.depth,
            self.seed,
        ) == (r.job, &r.algorithm, &r.model, &r.order, r.width, r.depth, r.seed)
    }

    /// The tree this record searched, as a string key.
    pub fn tree_key(&self) -> (String, String, u32, u32, u64) {
        (
            self.model.clone(),
            self.order.clone(),
            self.width,
            self.depth,
            self.seed,
        )
    }
}

/// The columns before the counters.
pub const KEY_COLUMNS: [&str; 10] = [
    "job",
    "algorithm",
    "model",
    "order",
    "width",
    "depth",
    "seed",
    "value",
    "best_move",
    "error",
];

/// The names of the [`Stats`] fields, in declaration order.
pub fn stats_columns() -> Vec<String> {
    // The csv crate writes a struct's field names as its header row.
    let mut w = csv::Writer::from_writer(Vec::new());
    w.serialize(Stats::default()).expect("Stats serializes to CSV");
    let bytes = w.into_inner().expect("in memory");
    let mut r = csv::Reader::from_reader(&bytes[..]);
    r.headers().expect("a header row").iter().map(str::to_string).collect()
}

fn stats_values(s: &Stats) -> Vec<String> {
    let mut w = csv::WriterBuilder::new().has_headers(false).from_writer(Vec::new());
    w.serialize(s).expect("Stats serializes to CSV");
    let bytes = w.into_inner().expect("in memory");
    let mut r = csv::ReaderBuilder::new().has_headers(false).from_reader(&bytes[..]);
    let rec = r.records().next().expect("one row").expect("valid CSV");
    rec.iter().map(str::to_string).collect()
}

/// The header row of a results file.
pub fn header() -> Vec<String> {
    KEY_COLUMNS
        .iter()
        .map(|s| s.to_string())
        .chain(stats_columns())
        .collect()
}

fn opt<T: ToString>(v: &Option<T>) -> String {
    v.as_ref().map_or(String::new(), T::to_string)
}

/// A record as CSV fields, in [`header`] order.
pub fn fields(r: &Record) -> Vec<String> {
    let mut out = vec![
        r.job.to_string(),
        r.algorithm.clone(),
        r.model.clone(),
        r.order.clone(),
        r.width.to_string(),
        r.depth.to_string(),
        r.seed.to_string(),
        opt(&r.value),
        opt(&r.best_move),
        r.error.clone().unwrap_or_default(),
    ];
    out.extend(stats_values(&r.stats));
    out
}

/// Writes records to a new CSV file (header first).
pub fn write_csv(path: &Path, records: &[Record]) -> Result<(), Error> {
    let file = File::create(path).map_err(|e| Error::io(path, e))?;
    let mut w = csv::Writer::from_writer(BufWriter::new(file));
    w.write_record(header()).map_err(|e| Error::csv(path, e))?;
    for r in records {
        w.write_record(fields(r)).map_err(|e| Error::csv(path, e))?;
    }
    w.flush().map_err(|e| Error::io(path, e))
}

/// Drops a torn last record from a results file: a record with no
/// newline at its end, left by a kill, a crash or a full disk in the
/// middle of a write. Returns the dropped text (`None` if the file ends
/// with a whole line); the file is cut back to its last whole line, so
/// the job of the dropped record runs again when the grid resumes.
pub fn drop_torn_tail(path: &Path) -> Result<Option<String>, Error> {
    let bytes = std::fs::read(path).map_err(|e| Error::io(path, e))?;
    if bytes.is_empty() || bytes.ends_with(b"\n") {
        return Ok(None);
    }
    let keep = bytes.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
    let file = std::fs::OpenOptions::new()
        .write(true)
        .open(path)
        .map_err(|e| Error::io(path, e))?;
    file.set_len(keep as u64).map_err(|e| Error::io(path, e))?;
    file.sync_all().map_err(|e| Error::io(path, e))?;
    Ok(Some(String::from_utf8_lossy(&bytes[keep..]).into_owned()))
}

/// Reads a results file written by [`write_csv`] or [`CsvSink`]. Columns may
/// come in any order; a counter missing from an older file reads as 0.
pub fn read_csv(path: &Path) -> Result<Vec<Record>, Error> {
    let mut rd = csv::Reader::from_path(path).map_err(|e| Error::csv(path, e))?;
    let headers = rd.headers().map_err(|e| Error::csv(path, e))?.clone();
    let col: HashMap<&str, usize> = headers.iter().enumerate().map(|(i, h)| (h, i)).collect();
    for k in KEY_COLUMNS {
        if !col.contains_key(k) {
            return Err(Error::new(format!(
                "{}: no `{k}` column: not a results file",
                path.display()
            )));
        }
    }
    let stats_cols: Vec<(String, usize)> = stats_columns()
        .into_iter()
        .filter_map(|c| col.get(c.as_str()).map(|&i| (c, i)))
        .collect();
    let mut out = Vec::new();
    for (line, rec) in rd.records().enumerate() {
        let rec = rec.map_err(|e| Error::csv(path, e))?;
        let at = || format!("{}: row {}", path.display(), line + 2);
        let get = |k: &str| rec.get(col[k]).unwrap_or("");
        fn num<T: std::str::FromStr>(s: &str, k: &str, at: &dyn Fn() -> String) -> Result<T, Error> {
            s.trim()
                .parse()
                .map_err(|_| Error::new(format!("{}: `{k}` = `{s}` is not a number", at())))
        }
        fn optnum<T: std::str::FromStr>(s: &str, k: &str, at: &dyn Fn() -> String) -> Result<Option<T>, Error> {
            if s.trim().is_empty() {
                Ok(None)
            } else {
                num(s, k, at).map(Some)
            }
        }
        let mut stats = serde_json::to_value(Stats::default()).expect("Stats serializes");
        for (c, i) in &stats_cols {
            let v: u64 = num(rec.get(*i).unwrap_or(""), c, &at)?;
            stats[c.as_str()] = serde_json::Value::from(v);
        }
        let stats: Stats = serde_json::from_value(stats).map_err(|e| Error::new(format!("{}: {e}", at())))?;
        let error = get("error");
        out.push(Record {
            job: num(get("job"), "job", &at)?,
            algorithm: get("algorithm").to_string(),
            model: get("model").to_string(),
            order: get("order").to_string(),
            width: num(get("width"), "width", &at)?,
            depth: num(get("depth"), "depth", &at)?,
            seed: num(get("seed"), "seed", &at)?,
            value: optnum(get("value"), "value", &at)?,
            best_move: optnum(get("best_move"), "best_move", &at)?,
            error: (!error.is_empty()).then(|| error.to_string()),
            stats,
        });
    }
    Ok(out)
}

/// Serialises writes to results files: whoever holds it may end the process
/// without leaving half a row behind (the CLI's second Ctrl-C does).
pub static OUTPUT_LOCK: Mutex<()> = Mutex::new(());

/// A results file that grows one flushed row at a time, as searches finish.
#[derive(Debug)]
pub struct CsvSink {
    path: std::path::PathBuf,
    w: Mutex<csv::Writer<File>>,
}

impl CsvSink {
    /// Creates `path` with a header row, or with `append` adds to an existing
    /// file (writing the header only if the file is empty).
    pub fn open(path: &Path, append: bool) -> Result<CsvSink, Error> {
        let file = std::fs::OpenOptions::new()
            .create(true)
            .write(true)
            .append(append)
            .truncate(!append)
            .open(path)
            .map_err(|e| Error::io(path, e))?;
        let empty = file.metadata().map_err(|e| Error::io(path, e))?.len() == 0;
        let mut w = csv::Writer::from_writer(file);
        if empty {
            w.write_record(header()).map_err(|e| Error::csv(path, e))?;
            w.flush().map_err(|e| Error::io(path, e))?;
        }
        Ok(CsvSink {
            path: path.to_path_buf(),
            w: Mutex::new(w),
        })
    }

    /// Appends one row and flushes it to the file.
    pub fn write(&self, r: &Record) -> Result<(), Error> {
        let _guard = OUTPUT_LOCK.lock().unwrap_or_else(|p| p.into_inner());
        let mut w = self.w.lock().unwrap_or_else(|p| p.into_inner());
        w.write_record(fields(r)).map_err(|e| Error::csv(&self.path, e))?;
        w.flush().map_err(|e| Error::io(&self.path, e))?;
        Ok(())
    }
}

/// Writes `text` to `path` through a temporary file, so that a reader never
/// sees half a file.
pub fn write_atomic(path: &Path, text: &[u8]) -> Result<(), Error> {
    let tmp = path.with_extension("tmp");
    {
        let mut f = File::create(&tmp).map_err(|e| Error::io(&tmp, e))?;
        f.write_all(text).map_err(|e| Error::io(&tmp, e))?;
    }
    std::fs::rename(&tmp, path).map_err(|e| Error::io(path, e))
}

/// Combines the records of several files: sorted by job, a job given twice
/// kept once. Fails if two files disagree on what a job number means (they
/// come from different grids).
pub fn merge(sets: Vec<Vec<Record>>) -> Result<Vec<Record>, Error> {
    let mut all: Vec<Record> = sets.into_iter().flatten().collect();
    all.sort_by_key(|r| r.job);
    let mut out: Vec<Record> = Vec::with_capacity(all.len());
    for r in all {
        if let Some(last) = out.last() {
            if last.job == r.job {
                if (&last.algorithm, last.tree_key()) != (&r.algorithm, r.tree_key()) {
                    return Err(Error::new(format!(
                        "job {} is `{} on {:?}` in one file and `{} on {:?}` in another: the files come from different grids",
                        r.job,
                        last.algorithm,
                        last.tree_key(),
                        r.algorithm,
                        r.tree_key()
                    )));
                }
                continue;
            }
        }
        out.push(r);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rec(job: u64, algo: &str, leaves: u64) -> Record {
        Record {
            job,
            algorithm: algo.into(),
            model: "iid".into(),
            order: "0.9".into(),
            width: 3,
            depth: 4,
            seed: 7,
            value: Some(-12),
            best_move: Some(2),
            error: if job == 1 {
                Some("node limit reached: \"x\", y".into())
            } else {
                None
            },
            stats: Stats {
                leaf_evals: leaves,
                max_open: 5,
                passes: 2,
                time_us: 99,
                ..Stats::default()
            },
        }
    }

    #[test]
    fn csv_round_trip() {
        let dir = std::env::temp_dir().join(format!("stockman-lab-csv-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let p = dir.join("r.csv");
        let rs = vec![rec(0, "sss", 10), rec(1, "alphabeta", 12)];
        write_csv(&p, &rs).unwrap();
        assert_eq!(read_csv(&p).unwrap(), rs);
        // The sink appends flushed rows to the same format.
        let q = dir.join("s.csv");
        let sink = CsvSink::open(&q, false).unwrap();
        sink.write(&rs[0]).unwrap();
        drop(sink);
        let sink = CsvSink::open(&q, true).unwrap();
        sink.write(&rs[1]).unwrap();
        assert_eq!(read_csv(&q).unwrap(), rs);
        let text = std::fs::read_to_string(&q).unwrap();
        assert_eq!(text.lines().count(), 3, "one header: {text}");
        assert!(text.starts_with("job,algorithm,model,order,width,depth,seed,value,best_move,error,leaf_evals"));
        std::fs::remove_dir_all(&dir).ok();
    }

    #[test]
    fn merge_sorts_dedups_and_rejects_conflicts() {
        let a = vec![rec(2, "sss", 1), rec(0, "sss", 1)];
        let b = vec![rec(1, "alphabeta", 1), rec(2, "sss", 1)];
        let m = merge(vec![a.clone(), b]).unwrap();
        assert_eq!(m.iter().map(|r| r.job).collect::<Vec<_>>(), vec![0, 1, 2]);
        let c = vec![rec(2, "dual", 1)];
        assert!(merge(vec![a, c]).is_err());
    }
}
