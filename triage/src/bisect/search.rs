//! The bisection search itself, over a list of commits oldest first, as a pure function of
//! what has been learnt so far: which commit to test next, or which commit is the first on
//! the new side. Kept apart from building and replaying so that every case (skips next to
//! the answer, skips everywhere, answers at either end) is unit-tested without git.

/// Which side of the change a tested commit is on (git bisect's "old"/"new" terms: for a
/// regression old = passes and new = fails; for a fix, the other way round).
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Mark {
    Old,
    New,
    /// Cannot say: the commit does not build, or its verdict is not the one bisected.
    Skip,
}

/// What the search wants next.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Step {
    /// Test the commit at this index.
    Test(usize),
    /// The commit at this index is the first new one: its parent is old.
    Found(usize),
    /// The first new commit is one of these (every commit between the last old and the
    /// first new one was skipped), oldest first, the known new one last.
    Ambiguous(Vec<usize>),
}

/// The next step, given `marks[i]` for commit `i` (`None`: not tested yet). Commit 0 is the
/// old end of the range and the last commit the new end: untested, they are taken to be
/// old and new as the caller said (like `git bisect`, which does not retest them).
///
/// Among the untested commits between the last old one and the first new one after it,
/// the one nearest the middle is tested next (the lower on a tie), so skipped commits cost
/// one extra test each, not a restart. `marks` has at least two entries.
pub fn next_step(marks: &[Option<Mark>]) -> Step {
    let last = marks.len() - 1;
    let lo = (1..=last)
        .rev()
        .find(|&i| marks[i] == Some(Mark::Old))
        .unwrap_or(0);
    let hi = (lo + 1..last)
        .find(|&i| marks[i] == Some(Mark::New))
        .unwrap_or(last);
    let mid = (lo + hi) / 2;
    let untested = (lo + 1..hi).filter(|&i| marks[i].is_none());
    match untested.min_by_key(|&i| (i.abs_diff(mid), i)) {
        Some(i) => Step::Test(i),
        None if hi == lo + 1 => Step::Found(hi),
        None => Step::Ambiguous((lo + 1..=hi).collect()),
    }
}

/// The indices still in question: from the first commit after the last old one to the
/// first new one after it (what a bisection stopped early can still name).
pub fn remaining(marks: &[Option<Mark>]) -> std::ops::RangeInclusive<usize> {
    let last = marks.len() - 1;
    let lo = (1..=last)
        .rev()
        .find(|&i| marks[i] == Some(Mark::Old))
        .unwrap_or(0);
    let hi = (lo + 1..last)
        .find(|&i| marks[i] == Some(Mark::New))
        .unwrap_or(last);
    lo + 1..=hi
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Runs the whole search against a range whose first new commit is `first_new`, with
    /// the commits in `skipped` untestable; returns the answer and the tests made.
    fn bisect(n: usize, first_new: usize, skipped: &[usize]) -> (Step, Vec<usize>) {
        let mut marks = vec![None; n];
        let mut tests = vec![];
        loop {
            match next_step(&marks) {
                Step::Test(i) => {
                    tests.push(i);
                    marks[i] = Some(if skipped.contains(&i) {
                        Mark::Skip
                    } else if i >= first_new {
                        Mark::New
                    } else {
                        Mark::Old
                    });
                }
                done => return (done, tests),
            }
        }
    }

    #[test]
    fn finds_every_first_new_commit_in_log_steps() {
        // Eleven commits after the old end: four tests at most (⌈log2 11⌉).
        for first in 1..12 {
            let (step, tests) = bisect(12, first, &[]);
            assert_eq!(step, Step::Found(first));
            assert!(tests.len() <= 4, "{first}: {tests:?}");
            assert!(!tests.contains(&0) && !tests.contains(&11));
        }
    }

    #[test]
    fn adjacent_ends_need_no_test() {
        assert_eq!(next_step(&[None, None]), Step::Found(1));
    }

    #[test]
    fn a_skipped_commit_costs_one_more_test_and_the_answer_stands() {
        let (step, tests) = bisect(12, 7, &[5]);
        assert_eq!(step, Step::Found(7));
        assert_eq!(tests, vec![5, 4, 7, 6]);
        let (step, _) = bisect(12, 3, &[6]);
        assert_eq!(step, Step::Found(3));
    }

    #[test]
    fn skips_next_to_the_answer_leave_a_range() {
        // 4 and 5 cannot be tested, 6 is the first new one: the change is in 4..=6.
        let (step, _) = bisect(12, 6, &[4, 5]);
        assert_eq!(step, Step::Ambiguous(vec![4, 5, 6]));
        // Everything skipped: the whole range.
        let (step, tests) = bisect(5, 2, &[1, 2, 3]);
        assert_eq!(step, Step::Ambiguous(vec![1, 2, 3, 4]));
        assert_eq!(tests.len(), 3);
    }

    #[test]
    fn the_middle_of_what_is_left_is_tested_first() {
        assert_eq!(next_step(&[None; 9]), Step::Test(4));
        let mut marks = vec![None; 9];
        marks[4] = Some(Mark::Skip);
        assert_eq!(next_step(&marks), Step::Test(3));
        marks[3] = Some(Mark::Old);
        assert_eq!(next_step(&marks), Step::Test(5));
        assert_eq!(remaining(&marks), 4..=8);
    }
}
