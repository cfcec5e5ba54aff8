//! Names read back from a campaign's child process as `&'static str`, the type the
//! statistics keep them in (so a passing case allocates nothing for them). Each distinct
//! name is leaked once: they come from the compiler's and the oracle's fixed tables
//! (opcodes, passes, devices, outcomes), so the set stays small.

use std::collections::BTreeSet;
use std::sync::Mutex;

static NAMES: Mutex<BTreeSet<&'static str>> = Mutex::new(BTreeSet::new());

/// The one `&'static str` equal to `s`.
pub fn intern(s: &str) -> &'static str {
    let mut names = NAMES.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(n) = names.get(s) {
        return n;
    }
    let leaked: &'static str = Box::leak(s.to_owned().into_boxed_str());
    names.insert(leaked);
    leaked
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn equal_names_are_one_string() {
        let a = intern(&String::from("lower_simd_width"));
        let b = intern("lower_simd_width");
        assert!(std::ptr::eq(a, b));
        assert_eq!(a, "lower_simd_width");
    }
}
