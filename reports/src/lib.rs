//! Rendering of eufuzz results for people and CI systems. Takes plain data (no types from
//! the compiler or the oracle), so the formats can be tested and reused on their own.

pub mod campaign_report;
pub mod campaign_report_history;
pub mod campaign_report_html;
pub mod campaign_report_md;
pub mod campaign_report_svg;
pub mod junit;
pub mod markup;
pub mod shader_runs;
pub mod shader_stats;
pub mod shader_stats_html;
pub mod shader_stats_text;
