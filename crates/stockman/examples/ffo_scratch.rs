use stockman::{Algorithm, Game, Othello, Playable, SearchOptions, TableSize};
fn perft(g: &Othello, p: &<Othello as Game>::Position, d: u32) -> u64 {
    if d == 0 {
        return 1;
    }
    let mut v = Vec::new();
    g.moves(p, &mut v);
    if v.is_empty() {
        return 1;
    }
    v.iter().map(|&m| perft(g, &g.play(p, m), d - 1)).sum()
}
fn main() {
    for (i, k) in ["T0", "T1", "T2", "T3"].iter().enumerate() {
        if let Some(v) = std::env::var(k).ok().and_then(|v| v.parse().ok()) {
            stockman::games::othello::TUNE[i].store(v, std::sync::atomic::Ordering::Relaxed);
        }
    }
    let g = Othello::new();
    for d in 1..=std::env::var("PERFT").ok().and_then(|v| v.parse().ok()).unwrap_or(0) {
        println!("perft {d}: {}", perft(&g, &g.root(), d));
    }
    let text = include_str!("../tests/data/othello/fforum-40-59.obf");
    let args: Vec<String> = std::env::args().collect();
    let algo = Algorithm::parse_list(args.get(1).map(|s| s.as_str()).unwrap_or("mtdf")).unwrap()[0];
    let n: usize = args.get(2).map(|s| s.parse().unwrap()).unwrap_or(3);
    let mut total = 0.0;
    for (i, line) in text.lines().take(n).enumerate() {
        let g = Othello::from_position(line).unwrap();
        let exp: i32 = line
            .split(';')
            .nth(1)
            .unwrap()
            .split(':')
            .nth(1)
            .unwrap()
            .trim()
            .parse()
            .unwrap();
        let opts = SearchOptions {
            table: TableSize::Megabytes(std::env::var("TT").ok().and_then(|v| v.parse().ok()).unwrap_or(256)),
            table_move_first: true,
            first_guess: std::env::var("FG").ok().and_then(|v| v.parse().ok()).unwrap_or(0),
            etc: std::env::var("ETC").is_ok(),
            ..Default::default()
        };
        let t = std::time::Instant::now();
        let out = if std::env::var("ITER").is_ok() {
            let h = g.with_heuristic();
            let mut o = stockman::algorithms::iterative::search(&h, algo, &opts).unwrap();
            o.value = o.value.map(|v| v / 1000);
            o
        } else {
            algo.search(&g, &opts).unwrap()
        };
        let s = t.elapsed().as_secs_f64();
        total += s;
        println!(
            "#{} empties {} value {:?} expected {} best {:?} leaves {} expanded {} nodes {} time {:.2}s {:.2} Mn/s",
            40 + i,
            g.board().empties(),
            out.value,
            exp,
            out.best_move.map(|m| g.move_text(m)),
            out.stats.leaf_evals,
            out.stats.nodes_expanded,
            out.stats.nodes,
            s,
            out.stats.nodes as f64 / s / 1e6
        );
    }
    println!("total {total:.2}s");
}
