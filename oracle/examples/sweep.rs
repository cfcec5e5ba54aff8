use oracle::differential::{check, input_sets};
use std::collections::BTreeMap;
fn main() {
    let a: Vec<u64> = std::env::args()
        .skip(1)
        .map(|s| s.parse().unwrap())
        .collect();
    let knobs = oracle::generator::knobs::Knobs::from_env().unwrap();
    let mut kinds: BTreeMap<String, usize> = BTreeMap::new();
    let mut shown = 0;
    let t = std::time::Instant::now();
    for seed in a[0]..a[1] {
        let g = oracle::generator::from_seed(seed, &knobs);
        let sets = input_sets(&g.program, 2, seed);
        let c = check(&g.program, &sets, &Default::default());
        let k = match &c.verdict {
            oracle::differential::Verdict::Discard { reason } => {
                format!("discard/{}", reason.name())
            }
            v => v.kind().to_string(),
        };
        if c.verdict.is_failure() && shown < 6 {
            shown += 1;
            let cu = oracle::culprit::localise(&g.program, &sets, &Default::default(), &c);
            println!(
                "seed {seed} {:?} {} culprit {:?}",
                g.program.device,
                k,
                cu.as_ref().map(|c| c.pass.clone())
            );
            println!("  {:?}", c.verdict).to_owned();
        }
        *kinds.entry(k).or_default() += 1;
    }
    println!("{kinds:?} in {:?}", t.elapsed());
}
