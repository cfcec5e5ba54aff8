//! Analyses: facts about a program that passes read and never write. They live apart from
//! the passes because several passes (and the scheduler) share each of them, and none of
//! them is a step of a pipeline.

pub mod dominance;
pub mod liveness;
pub mod schedule_deps;
