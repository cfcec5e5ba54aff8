fn main() {
    let seed: u64 = std::env::args().nth(1).unwrap().parse().unwrap();
    let g = oracle::generator::from_seed(seed, &oracle::generator::knobs::Knobs::default());
    println!("# features {:?}", g.features);
    print!("{}", compiler::text::print_program(&g.program));
}
