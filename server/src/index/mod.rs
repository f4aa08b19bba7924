//! The repo-wide index.
