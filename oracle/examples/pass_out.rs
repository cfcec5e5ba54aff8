use compiler::pipeline::CompileOptions;
use compiler::text::{parse_program, print_inst};
fn main() {
    let args: Vec<String> = std::env::args().collect();
    let mut p = parse_program(&std::fs::read_to_string(&args[1]).unwrap()).unwrap();
    p.resplit();
    compiler::passes::lower_integer_multiplication::run(&mut p, &CompileOptions::default())
        .unwrap();
    for i in p.insts() {
        println!("{}", print_inst(i));
    }
}
