use tetrarch::rules::{judkins::Judkins, Game, perft};
fn main() {
    let args: Vec<String> = std::env::args().collect();
    let d: u32 = args[1].parse().unwrap();
    let fen = if args.len() > 2 { args[2..].join(" ") } else { tetrarch::rules::judkins::START_SFEN.to_string() };
    let p = Judkins::from_text(&fen).unwrap();
    let t = std::time::Instant::now();
    let n = perft(&p, d);
    println!("{} {:?}", n, t.elapsed());
}
