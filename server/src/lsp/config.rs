//! The `codectx` configuration section: defaults, validation, and merging of
//! `initializationOptions` and `workspace/didChangeConfiguration` settings.
//!
//! Invariant: an invalid value is reported and the previous value kept; unknown keys are
//! reported and ignored; a partial update changes only the keys it names.

use std::path::PathBuf;

use serde_json::Value;

use crate::index::{cache, IndexConfig};
use crate::languages::Language;

/// The server's settings.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Config {
    pub exclude: Vec<String>,
    pub max_file_size: u64,
    pub languages: Vec<Language>,
    pub context_default_budget: u32,
    pub symbols_limit: usize,
    /// How long `codectx.context` and `codectx.status {wait: true}` wait for the first index.
    pub index_wait_ms: u64,
    /// Whether builds read and write the syntax cache (see `index::cache`).
    pub syntax_cache: bool,
}

impl Default for Config {
    fn default() -> Config {
        Config {
            exclude: Vec::new(),
            max_file_size: IndexConfig::default().max_file_size,
            languages: Vec::new(),
            context_default_budget: 8000,
            symbols_limit: 200,
            index_wait_ms: 60_000,
            syntax_cache: true,
        }
    }
}

/// What applying settings did.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct ConfigChange {
    /// Messages for rejected values (shown to the user).
    pub errors: Vec<String>,
    /// Keys that are not settings (logged).
    pub unknown: Vec<String>,
    /// Whether the set of indexed files may have changed.
    pub reindex: bool,
}

impl Config {
    /// The cache directory (see `index::cache`), unless the `syntaxCache` setting turns the
    /// caches off.
    pub fn cache_dir(&self) -> Option<PathBuf> {
        self.syntax_cache.then(cache::default_dir).flatten()
    }

    pub fn index_config(&self) -> IndexConfig {
        IndexConfig {
            max_file_size: self.max_file_size,
            exclude: self.exclude.clone(),
            languages: self.languages.clone(),
        }
    }

    /// Applies a settings object: either the `codectx` section itself or an object holding it
    /// under `codectx`. Keys may be nested (`{"symbols": {"limit": 50}}`) or dotted
    /// (`{"symbols.limit": 50}`).
    pub fn apply(&mut self, settings: &Value) -> ConfigChange {
        let mut change = ConfigChange::default();
        let section = match settings.get("codectx") {
            Some(section) => section,
            None => settings,
        };
        match section {
            Value::Null => {}
            Value::Object(map) => {
                for (key, value) in map {
                    self.apply_key(key, value, &mut change);
                }
            }
            other => change
                .errors
                .push(format!("codectx settings must be an object, got {other}")),
        }
        change
    }

    fn apply_key(&mut self, key: &str, value: &Value, change: &mut ConfigChange) {
        if value.is_null() {
            return;
        }
        let before = self.index_config();
        let res: Result<(), String> = match key {
            "exclude" => string_list(value).and_then(|globs| {
                for glob in &globs {
                    ignore::overrides::OverrideBuilder::new("/")
                        .add(glob)
                        .map_err(|err| format!("invalid glob {glob:?}: {err}"))?;
                }
                self.exclude = globs;
                Ok(())
            }),
            "maxFileSize" => positive(value).map(|size| self.max_file_size = size),
            "languages" => string_list(value).and_then(|names| {
                let mut languages = Vec::new();
                for name in &names {
                    let lang = Language::from_name(name).ok_or_else(|| {
                        format!(
                            "unknown language {name:?} (known: {})",
                            Language::ALL.map(Language::name).join(", ")
                        )
                    })?;
                    languages.push(lang);
                }
                self.languages = languages;
                Ok(())
            }),
            "context.defaultBudget" => positive(value).and_then(|budget| {
                self.context_default_budget =
                    u32::try_from(budget).map_err(|_| format!("{budget} is too large"))?;
                Ok(())
            }),
            "symbols.limit" => positive(value).map(|limit| self.symbols_limit = limit as usize),
            "indexWaitMs" => value
                .as_u64()
                .ok_or_else(|| format!("expected a number of milliseconds, got {value}"))
                .map(|ms| self.index_wait_ms = ms),
            "syntaxCache" => value
                .as_bool()
                .ok_or_else(|| format!("expected true or false, got {value}"))
                .map(|on| self.syntax_cache = on),
            "context" | "symbols" if value.is_object() => {
                for (sub_key, sub_value) in value.as_object().into_iter().flatten() {
                    self.apply_key(&format!("{key}.{sub_key}"), sub_value, change);
                }
                Ok(())
            }
            _ => {
                change.unknown.push(key.to_owned());
                Ok(())
            }
        };
        if let Err(err) = res {
            change
                .errors
                .push(format!("codectx.{key}: {err}; keeping the previous value"));
        }
        if self.index_config() != before {
            change.reindex = true;
        }
    }
}

fn string_list(value: &Value) -> Result<Vec<String>, String> {
    let items = value
        .as_array()
        .ok_or_else(|| format!("expected a list of strings, got {value}"))?;
    items
        .iter()
        .map(|item| {
            item.as_str()
                .map(str::to_owned)
                .ok_or_else(|| format!("expected a string, got {item}"))
        })
        .collect()
}

fn positive(value: &Value) -> Result<u64, String> {
    match value.as_u64() {
        Some(number) if number > 0 => Ok(number),
        _ => Err(format!("expected a positive integer, got {value}")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn valid_values_apply_and_invalid_ones_keep_the_old_value() {
        let mut config = Config::default();
        let change = config.apply(&json!({"codectx": {
            "symbols": {"limit": 50},
            "maxFileSize": -3,
            "languages": ["python", "cobol"],
            "exclude": ["docs/**"],
            "context.defaultBudget": 1200,
            "syntaxCache": "yes",
            "colour": "blue",
        }}));
        assert_eq!(config.symbols_limit, 50);
        assert_eq!(config.context_default_budget, 1200);
        assert_eq!(config.max_file_size, Config::default().max_file_size);
        assert!(config.languages.is_empty());
        assert_eq!(config.exclude, ["docs/**"]);
        assert_eq!(change.unknown, ["colour"]);
        assert!(config.syntax_cache);
        assert_eq!(change.errors.len(), 3, "{:?}", change.errors);
        assert!(change.reindex);
        // Applying the same settings again changes nothing that needs a reindex.
        let again = config.apply(&json!({"exclude": ["docs/**"], "syntaxCache": false}));
        assert!(!again.reindex);
        assert!(!config.syntax_cache);
    }
}
