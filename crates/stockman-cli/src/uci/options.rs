//! The options a GUI sets (`setoption`): what they are, how each is
//! checked, and the engine they describe.

use super::*;

/// The options a GUI can set.
#[derive(Clone, Debug, PartialEq)]
pub(super) struct Settings {
    pub(super) hash_mb: usize,
    pub(super) threads: usize,
    pub(super) parallel: Parallel,
    pub(super) algorithm: Algorithm,
    pub(super) table_move_first: bool,
    pub(super) etc: bool,
    pub(super) history: bool,
    pub(super) killers: bool,
    /// 0: full windows.
    pub(super) aspiration: Value,
    pub(super) overhead_ms: u64,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            hash_mb: 64,
            threads: 1,
            parallel: Parallel::default(),
            algorithm: Algorithm::Mtdf,
            table_move_first: true,
            etc: true,
            history: false,
            killers: false,
            aspiration: DEFAULT_ASPIRATION,
            overhead_ms: 50,
        }
    }
}

impl Settings {
    /// The engine these settings describe, its searches stoppable by `stop`.
    pub(super) fn engine(&self, stop: &Arc<AtomicBool>) -> Result<Engine, String> {
        let settings = stockman::run::EngineSettings {
            algorithm: self.algorithm,
            tt_mb: self.hash_mb,
            enhancements: stockman::run::Enhancements {
                table_move: Some(self.table_move_first),
                etc: Some(self.etc),
                history: Some(self.history),
                killers: Some(self.killers),
                aspiration: Some((self.aspiration > 0).then_some(self.aspiration)),
                ..Default::default()
            },
            threads: self.threads,
            parallel: self.parallel,
        };
        settings.build(Some(stop.clone())).map_err(|e| e.to_string())
    }

    /// The `option` lines of the `uci` answer.
    pub(super) fn describe() -> Vec<String> {
        let d = Settings::default();
        let algos: Vec<String> = engine_algorithms().map(|a| format!("var {}", a.name())).collect();
        let check = |name: &str, on: bool| format!("option name {name} type check default {on}");
        vec![
            format!(
                "option name Hash type spin default {} min 1 max {MAX_HASH_MB}",
                d.hash_mb
            ),
            format!("option name Clear Hash type button"),
            format!("option name Threads type spin default 1 min 1 max {MAX_THREADS}"),
            format!(
                "option name Parallel type combo default {} var abdada var lazy-smp",
                d.parallel
            ),
            format!(
                "option name Algorithm type combo default {} {}",
                d.algorithm.name(),
                algos.join(" ")
            ),
            check("TableMoveFirst", d.table_move_first),
            check("ETC", d.etc),
            check("History", d.history),
            check("Killers", d.killers),
            format!(
                "option name Aspiration type spin default {} min 0 max 100000",
                d.aspiration
            ),
            format!(
                "option name Move Overhead type spin default {} min 0 max 5000",
                d.overhead_ms
            ),
        ]
    }

    /// Sets option `name` to `value`; an error names what is wrong.
    pub(super) fn set(&mut self, name: &str, value: Option<&str>) -> Result<(), String> {
        let key = name.to_ascii_lowercase().replace(' ', "");
        let need = || value.ok_or_else(|| format!("setoption {name}: a value is needed (`value ...`)"));
        let spin = |lo: i64, hi: i64| -> Result<i64, String> {
            let v = need()?;
            match v.parse::<i64>() {
                Ok(n) if (lo..=hi).contains(&n) => Ok(n),
                _ => Err(format!(
                    "setoption {name}: `{v}` is not a whole number from {lo} to {hi}"
                )),
            }
        };
        let check = || -> Result<bool, String> {
            match need()?.to_ascii_lowercase().as_str() {
                "true" => Ok(true),
                "false" => Ok(false),
                v => Err(format!("setoption {name}: `{v}` is neither true nor false")),
            }
        };
        match key.as_str() {
            "hash" => self.hash_mb = spin(1, MAX_HASH_MB as i64)? as usize,
            "threads" => self.threads = spin(1, MAX_THREADS as i64)? as usize,
            "parallel" => self.parallel = need()?.parse().map_err(|e| format!("setoption {name}: {e}"))?,
            "algorithm" => {
                let v = need()?;
                self.algorithm = v
                    .parse::<Algorithm>()
                    .ok()
                    .filter(|a| a.drives_engine())
                    .ok_or_else(|| {
                        let names: Vec<&str> = engine_algorithms().map(|a| a.name()).collect();
                        format!("setoption {name}: `{v}` is not one of {}", names.join(", "))
                    })?;
            }
            "tablemovefirst" => self.table_move_first = check()?,
            "etc" => self.etc = check()?,
            "history" => self.history = check()?,
            "killers" => self.killers = check()?,
            "aspiration" => self.aspiration = spin(0, 100_000)? as Value,
            "moveoverhead" => self.overhead_ms = spin(0, 5000)? as u64,
            _ => return Err(format!("setoption: there is no option `{name}`")),
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn options_are_checked() {
        let mut s = Settings::default();
        assert!(s.set("Hash", Some("16")).is_ok());
        assert_eq!(s.hash_mb, 16);
        assert_eq!(
            s.set("Hash", Some("0")).unwrap_err(),
            "setoption Hash: `0` is not a whole number from 1 to 65536"
        );
        assert_eq!(
            s.set("Nope", Some("1")).unwrap_err(),
            "setoption: there is no option `Nope`"
        );
        assert!(s
            .set("Algorithm", Some("sss"))
            .unwrap_err()
            .contains("is not one of mtdf"));
        assert!(s.set("Move Overhead", Some("100")).is_ok());
        assert_eq!(s.overhead_ms, 100);
        assert!(s.set("ETC", Some("maybe")).is_err());
        assert!(s.set("Killers", Some("true")).is_ok());
        assert!(s.killers);
    }
}
