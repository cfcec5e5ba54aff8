use compiler::text::{parse_program, print_program};
use oracle::differential::{check, input_sets};
fn sig(p: &compiler::Program) -> Option<String> {
    if !compiler::validate::validate(p).is_empty() {
        return None;
    }
    let sets = input_sets(p, 0, 0);
    let c = check(p, &sets, &Default::default());
    if !c.verdict.is_failure() {
        return None;
    }
    let cu = oracle::culprit::localise(p, &sets, &Default::default(), &c);
    Some(format!(
        "{}/{}",
        c.verdict.kind(),
        cu.map(|c| c.pass).unwrap_or_default()
    ))
}
fn main() {
    let path = std::env::args().nth(1).unwrap();
    let mut p = parse_program(&std::fs::read_to_string(&path).unwrap()).unwrap();
    let want = sig(&p).expect("does not fail");
    eprintln!("signature {want}");
    loop {
        let mut progress = false;
        let n = p.inst_count();
        let mut i = n;
        while i > 0 {
            i -= 1;
            let mut q = p.clone();
            let mut insts = q.take_insts();
            if i >= insts.len() || insts[i].op.is_control_flow() || insts[i].eot {
                continue;
            }
            insts.remove(i);
            q.set_insts(insts);
            if sig(&q).as_deref() == Some(want.as_str()) {
                p = q;
                progress = true;
            }
        }
        if !progress {
            break;
        }
    }
    print!("{}", print_program(&p));
}
