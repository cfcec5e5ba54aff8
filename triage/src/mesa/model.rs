//! eufuzz's own model of a Mesa pass, run on the same program, so that where the two
//! backends rewrite a program differently is seen side by side (`check --backend mesa:PASS
//! --compare-model`; the list of differences is in docs/mesa-shim.md).

use compiler::Program;
use compiler::pass::{CompileOptions, Pass};
use compiler::passes::registry;
use compiler::text::print_program;

/// eufuzz's pass modelling Mesa's `mesa_pass`, when there is one (Mesa's name, or the
/// model's where the model spells it differently).
pub fn model_pass(mesa_pass: &str) -> Option<&'static Pass> {
    let name = match mesa_pass {
        "dead_code_eliminate" => "opt_dead_code_eliminate",
        "register_coalesce" => "opt_register_coalesce",
        other => other,
    };
    registry::find(name)
}

/// How eufuzz's model of the pass and Mesa's pass compare on `p`, given Mesa's output
/// (already parsed): one line, then (when they differ) both programs as printed by
/// eufuzz, so that only real differences show.
pub fn compare(mesa_pass: &str, p: &Program, mesa_output: &Program) -> String {
    let Some(pass) = model_pass(mesa_pass) else {
        return format!("eufuzz has no model of {mesa_pass}\n");
    };
    let mut ours = p.clone();
    ours.inputs = None;
    let ran = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        (pass.run)(&mut ours, &CompileOptions::default())
    }));
    let progress = match ran {
        Ok(Ok(progress)) => progress,
        Ok(Err(e)) => return format!("eufuzz's {}: refused: {e}\n", pass.name),
        Err(_) => return format!("eufuzz's {}: panicked\n", pass.name),
    };
    let (a, b) = (print_program(&ours), print_program(mesa_output));
    if a == b {
        return format!(
            "eufuzz's {} gives the same program ({})\n",
            pass.name,
            if progress { "changed" } else { "unchanged" }
        );
    }
    let mut s = format!("eufuzz's {} gives a different program:\n", pass.name);
    for line in similar::TextDiff::from_lines(&b, &a)
        .unified_diff()
        .header("Mesa", "eufuzz")
        .to_string()
        .lines()
    {
        s.push_str("    ");
        s.push_str(line);
        s.push('\n');
    }
    s
}
