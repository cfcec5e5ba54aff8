//! The text form under libFuzzer: arbitrary bytes as `.eu` text never panic the parser, and
//! whatever parses prints canonically and re-parses to the same program; arbitrary bytes
//! decoded as a program (its inputs cut to fit its declarations) print to text that parses
//! back to that program.

#![no_main]

use arbitrary::{Arbitrary, Unstructured};
use compiler::Program;
use compiler::text::{parse_program, print_program};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(text) = std::str::from_utf8(data)
        && let Ok(p) = parse_program(text)
    {
        let printed = print_program(&p);
        assert_eq!(parse_program(&printed).as_ref(), Ok(&p), "{printed}");
    }
    if let Ok(mut p) = Program::arbitrary(&mut Unstructured::new(data)) {
        // Inputs that do not fit the program are a parse error of the text form.
        compiler::inputs::fit_inputs(&mut p);
        let printed = print_program(&p);
        assert_eq!(parse_program(&printed).as_ref(), Ok(&p), "{printed}");
        let _ = compiler::validate::validate(&p);
    }
});
