//! Where each entry of a file's INPUTS section was written, so that inputs which do not fit
//! the program's declarations are parse errors at their `line:col`. The emulator would
//! silently drop them (values for an undeclared attribute or a thread the program does not
//! have, bytes past an attribute's or the uniforms' size, mask bits past the dispatch
//! width), and a reproducer whose inputs do not reach the program replays nothing.

use crate::inputs::{Inputs, values_to_bytes};
use crate::program::Program;
use crate::text::parse::ParseError;
use std::collections::BTreeMap;

/// A 1-based line and column.
pub type At = (usize, usize);

/// The positions of an INPUTS section's entries.
#[derive(Default)]
pub struct InputSites {
    /// The `uniforms` keyword.
    pub uniforms: Option<At>,
    /// Per (thread, attr): the thread number and the `attrN` word.
    pub attrs: BTreeMap<(u32, u32), (At, At)>,
    /// Per thread: the thread number and the mask value.
    pub masks: BTreeMap<u32, (At, At)>,
}

fn error((line, col): At, msg: String) -> ParseError {
    ParseError { line, col, msg }
}

fn thread_error(p: &Program, t: u32, at: At) -> Option<ParseError> {
    (t >= p.threads).then(|| {
        error(
            at,
            format!(
                "thread {t} does not exist: the program has {} thread(s), 0..{}",
                p.threads,
                p.threads.saturating_sub(1)
            ),
        )
    })
}

/// The first (in file order) entry of `inputs` that does not fit `p`'s declarations.
pub fn check(p: &Program, inputs: &Inputs, sites: &InputSites) -> Result<(), ParseError> {
    let mut errors = vec![];
    if let Some(at) = sites.uniforms {
        let bytes = values_to_bytes(&inputs.uniforms).len();
        let room = p.uniforms as usize * 4;
        if p.uniforms == 0 && bytes > 0 {
            errors.push(error(
                at,
                "uniforms given, but the program declares none (add a `uniforms N` line)".into(),
            ));
        } else if bytes > room {
            errors.push(error(
                at,
                format!(
                    "{bytes} bytes of uniforms given, but the program declares {} (`uniforms {}`)",
                    room, p.uniforms
                ),
            ));
        }
    }
    for (&(t, a), &(thread_at, attr_at)) in &sites.attrs {
        if let Some(e) = thread_error(p, t, thread_at) {
            errors.push(e);
            continue;
        }
        let Some(&size) = p.attr_sizes.get(a as usize) else {
            errors.push(error(
                attr_at,
                format!(
                    "attr{a} is not declared: the program declares {} attribute(s)",
                    p.attr_sizes.len()
                ),
            ));
            continue;
        };
        let values = inputs.attrs.get(&(t, a)).map_or(&[][..], Vec::as_slice);
        let bytes = values_to_bytes(values).len();
        let room = size as usize * crate::reg::REG_SIZE as usize;
        if bytes > room {
            errors.push(error(
                attr_at,
                format!(
                    "{} values ({bytes} bytes) given for attr{a}, which holds {room} bytes ({size} register(s), {} dwords)",
                    values.len(),
                    room / 4
                ),
            ));
        }
    }
    for (&t, &(thread_at, mask_at)) in &sites.masks {
        if let Some(e) = thread_error(p, t, thread_at) {
            errors.push(e);
            continue;
        }
        let mask = inputs.dispatch_masks.get(&t).copied().unwrap_or(0);
        let width = u32::from(p.dispatch_width);
        if width < 32 && mask >> width != 0 {
            errors.push(error(
                mask_at,
                format!("dispatch mask {mask:#x} has channels beyond the dispatch width {width}"),
            ));
        }
    }
    match errors.into_iter().min_by_key(|e| (e.line, e.col)) {
        Some(e) => Err(e),
        None => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use crate::text::parse_program;

    /// A two-thread SIMD8 program with one uniform, a 4-register attr0 and a 2-register
    /// (16-dword) attr1, with `inputs` as its INPUTS section (line 14 on).
    fn with_inputs(uniforms: u32, inputs: &str) -> String {
        format!(
            "eu 1\ntarget skl\ndispatch 8\nthreads 2\nuniforms {uniforms}\nattr attr0 4\nattr attr1 2\n\nSTART B0\n    fb_write_logical(8) null:UD, attr0:F, 4:UD, 0:UD {{ EOT }}\nEND B0\n\nINPUTS\n{inputs}END INPUTS\n"
        )
    }

    fn error(uniforms: u32, inputs: &str) -> String {
        parse_program(&with_inputs(uniforms, inputs))
            .expect_err("inputs that do not fit")
            .to_string()
    }

    #[test]
    fn inputs_that_fit_the_declarations_parse() {
        let ok = "    uniforms 1.0:F\n    thread 1 attr1 0:D*16\n    thread 1 dispatch_mask 0xff\n";
        assert!(parse_program(&with_inputs(1, ok)).is_ok());
    }

    #[test]
    fn an_undeclared_attribute_is_located() {
        assert_eq!(
            error(1, "    thread 0 attr2 1.0:F\n"),
            "14:14: attr2 is not declared: the program declares 2 attribute(s)"
        );
    }

    #[test]
    fn a_thread_the_program_does_not_have_is_located() {
        assert_eq!(
            error(1, "    thread 2 attr0 1.0:F\n"),
            "14:12: thread 2 does not exist: the program has 2 thread(s), 0..1"
        );
        assert_eq!(
            error(
                1,
                "    thread 0 attr0 1.0:F\n    thread 7 dispatch_mask 0x1\n"
            ),
            "15:12: thread 7 does not exist: the program has 2 thread(s), 0..1"
        );
    }

    #[test]
    fn too_many_values_for_an_attribute_are_located() {
        assert_eq!(
            error(1, "    thread 0 attr1 0:D*24\n"),
            "14:14: 24 values (96 bytes) given for attr1, which holds 64 bytes (2 register(s), 16 dwords)"
        );
    }

    #[test]
    fn uniforms_without_a_declaration_or_room_are_located() {
        assert_eq!(
            error(0, "    uniforms 1.0:F\n"),
            "14:5: uniforms given, but the program declares none (add a `uniforms N` line)"
        );
        assert_eq!(
            error(1, "    uniforms 1.0:F 2.0:F\n"),
            "14:5: 8 bytes of uniforms given, but the program declares 4 (`uniforms 1`)"
        );
    }

    #[test]
    fn a_dispatch_mask_wider_than_the_dispatch_is_located() {
        assert_eq!(
            error(1, "    thread 0 dispatch_mask 0x1ff\n"),
            "14:28: dispatch mask 0x1ff has channels beyond the dispatch width 8"
        );
    }

    #[test]
    fn the_first_misfit_in_file_order_is_reported() {
        assert!(
            error(
                1,
                "    thread 1 dispatch_mask 0x100\n    thread 0 attr5 1.0:F\n"
            )
            .starts_with("14:")
        );
    }
}
