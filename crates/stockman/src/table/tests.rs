//! The tables' unit tests: entries round-trip, replacement, generations.

use super::*;

fn entry(v: Value, draft: u32) -> Entry {
    Entry {
        lower: v,
        upper: v,
        draft,
        best: 0,
        best_proves: false,
        work: 0,
    }
}

/// The keys a one-bucket table holds, newest first.
fn held(t: &mut FixedTable, keys: std::ops::Range<u64>) -> Vec<u64> {
    let mut found: Vec<(u64, usize)> = keys
        .filter_map(|k| {
            let e = t.probe(k)?;
            assert_eq!(e.lower, k as Value, "key {k} answers with another key's entry");
            let b = t.bucket(k);
            Some((k, (0..SLOTS).find(|&s| b.tags[s] == k + 1).unwrap()))
        })
        .collect();
    found.sort_by_key(|&(_, slot)| slot);
    found.into_iter().map(|(k, _)| k).collect()
}

#[test]
fn buckets_are_cache_lines() {
    for buckets in [1, 2, 64, 1024] {
        let t = FixedTable::with_buckets(buckets);
        assert_eq!((t.words.as_ptr() as usize + 8 * t.offset) % 64, 0);
        assert_eq!(t.capacity(), 3 * buckets);
        assert_eq!(t.bytes(), 64 * buckets);
        let c = t.clone();
        assert_eq!((c.words.as_ptr() as usize + 8 * c.offset) % 64, 0);
    }
    assert_eq!(FixedTable::with_megabytes(16).bytes(), 16 << 20);
    assert_eq!(FixedTable::with_megabytes(0).bytes(), 1 << 20);
    let e = FixedTable::try_with_megabytes(0).unwrap_err();
    assert_eq!(e.kind, TableErrorKind::OutOfRange);
    assert_eq!(FixedTable::with_megabytes(3).bytes(), 2 << 20);
}

#[test]
fn fixed_table_keeps_full_keys_under_collisions() {
    let mut t = FixedTable::with_buckets(1);
    for k in 0..10u64 {
        t.store(k, entry(k as Value, (k * 7 % 5) as u32));
    }
    // Only three slots: whatever survives answers for its own key only.
    assert_eq!(held(&mut t, 0..10).len(), 3);
    for k in 10..1000u64 {
        assert_eq!(t.probe(k), None);
    }
}

#[test]
fn replacement_evicts_the_shallowest_then_the_oldest() {
    let mut t = FixedTable::with_buckets(1);
    t.store(1, entry(1, 10));
    t.store(2, entry(2, 3));
    t.store(3, entry(3, 2));
    assert_eq!(held(&mut t, 0..10), [3, 2, 1]);
    t.store(4, entry(4, 2)); // evicts 3: the shallowest, older than 4
    assert_eq!(held(&mut t, 0..10), [4, 2, 1]);
    t.store(5, entry(5, 0)); // a new entry always goes in: evicts 4
    assert_eq!(held(&mut t, 0..10), [5, 2, 1]);
    t.store(6, entry(6, 3)); // evicts 5
    assert_eq!(held(&mut t, 0..10), [6, 2, 1]);
    t.store(7, entry(7, 3)); // 2 and 6 tie at draft 3: the older, 2, goes
    assert_eq!(held(&mut t, 0..10), [7, 6, 1]);
    // An update stays in place and evicts nobody.
    t.store(1, entry(1, 0));
    assert_eq!(held(&mut t, 0..10), [7, 6, 1]);
    assert_eq!(t.probe(1).unwrap().draft, 0);
    // A search to the end stores every draft as u32::MAX: the three newest stay.
    let mut t = FixedTable::with_buckets(1);
    for k in 0..6 {
        t.store(k, entry(k as Value, u32::MAX));
    }
    assert_eq!(held(&mut t, 0..10), [5, 4, 3]);
    t.clear();
    assert_eq!(held(&mut t, 0..10), Vec::<u64>::new());
}

#[test]
fn replacement_keeps_work_among_equal_drafts() {
    let worked = |v: Value, work: u32| Entry {
        work,
        ..entry(v, u32::MAX)
    };
    let mut t = FixedTable::with_buckets(1);
    t.store(1, worked(1, 20));
    t.store(2, worked(2, 3));
    t.store(3, worked(3, 9));
    assert_eq!(held(&mut t, 0..10), [3, 2, 1]);
    t.store(4, worked(4, 1)); // evicts 2, the least work
    assert_eq!(held(&mut t, 0..10), [4, 3, 1]);
    t.store(5, worked(5, 1)); // 4 and 5 tie: the older, 4, goes
    assert_eq!(held(&mut t, 0..10), [5, 3, 1]);
    // An update keeps the larger work: 1 stays the costliest.
    t.store(1, worked(1, 2));
    assert_eq!(t.probe(1).unwrap().work, 20);
    t.store(6, worked(6, 15)); // evicts 5
    t.store(7, worked(7, 10)); // evicts 3 (9): 6 and 1 are costlier
    assert_eq!(held(&mut t, 0..10), [7, 6, 1]);
    // The proof flag shares the work's byte but is no work: 7, updated
    // with it, keeps its work (10) and is still the cheapest to evict.
    t.store(
        7,
        Entry {
            best_proves: true,
            ..worked(7, 1)
        },
    );
    assert_eq!(t.probe(7).map(|e| (e.work, e.best_proves)), Some((10, true)));
    t.store(8, worked(8, 1));
    assert_eq!(held(&mut t, 0..10), [8, 6, 1]);
    // The draft comes first: a shallower entry goes before a cheaper one.
    let mut t = FixedTable::with_buckets(1);
    t.store(
        1,
        Entry {
            work: 30,
            ..entry(1, 2)
        },
    );
    t.store(2, Entry { work: 1, ..entry(2, 5) });
    t.store(3, Entry { work: 1, ..entry(3, 5) });
    t.store(4, Entry { work: 1, ..entry(4, 5) });
    assert_eq!(held(&mut t, 0..10), [4, 3, 2]);
    assert_eq!(Entry::work_of(0), 0);
    assert_eq!(Entry::work_of(1), 1);
    assert_eq!(Entry::work_of(3), 2);
    assert_eq!(Entry::work_of(u64::MAX), 64);
}

#[test]
fn clear_starts_a_generation() {
    let mut t = FixedTable::with_buckets(2);
    // Through two wraps of the generation counter: nothing from before a
    // clear is ever found again, and a cleared bucket fills up afresh.
    for round in 0..600u64 {
        for k in 0..3 {
            assert_eq!(t.probe(k), None, "round {round}");
        }
        t.store(round % 3, entry(round as Value, 1));
        assert_eq!(t.probe(round % 3).unwrap().lower, round as Value);
        t.clear();
    }
    let w = t.words.clone();
    t.clear();
    assert_eq!(t.words, w, "a clear writes nothing");
}

#[test]
fn entries_round_trip() {
    let mut t = FixedTable::with_buckets(4);
    let cases = [
        (-INF, INF, u32::MAX, NO_MOVE),
        (crate::VALUE_MIN, crate::VALUE_MAX, 0, 0),
        (-5, 7, 1, 254),
        (3, 3, 12345, 255),
        (0, 0, 65_534, 100_000),
    ];
    for (k, &(lower, upper, draft, best)) in cases.iter().enumerate() {
        let key = 1000 * k as u64;
        t.store(
            key,
            Entry {
                lower,
                upper,
                draft,
                best,
                best_proves: k % 2 == 1,
                work: k as u32 * 30,
            },
        );
        let e = t.probe(key).unwrap();
        assert_eq!((e.lower, e.upper, e.draft), (lower, upper, draft));
        // The flag shares the work's byte without changing it.
        assert_eq!(e.best_proves, k % 2 == 1);
        // Move indices that do not fit a byte are forgotten, never garbled.
        assert_eq!(e.best, if best < 255 { best } else { NO_MOVE });
        assert_eq!(e.work, (k as u32 * 30).min(64));
    }
    // Drafts a slot cannot hold (other than a search to the end) are forgotten.
    for (key, draft) in [(7, 65_535), (8, u32::MAX - 1)] {
        t.store(key, entry(1, draft));
        assert_eq!(t.probe(key), None);
    }
    // The one key that would look like an empty slot is never stored.
    t.store(u64::MAX, entry(1, 1));
    assert_eq!(t.probe(u64::MAX), None);
    let mut c = t.clone();
    for key in (0..5).map(|k| 1000 * k) {
        assert_eq!(c.probe(key), t.probe(key));
    }
    assert!((0..5).any(|k| c.probe(1000 * k).is_some()));
}

#[test]
fn a_growing_table_answers_as_the_full_table() {
    // Keys from a small range (so that buckets overflow and evict at the
    // full size), random drafts and work, clears through a wrap of the
    // generation: every probe of the growing table is the full table's.
    for (full, keys) in [(1usize, 8u64), (4, 40), (64, 300), (256, 5_000)] {
        let mut big = FixedTable::with_buckets(full);
        let mut grows = FixedTable::growing_to(full).unwrap();
        assert_eq!(grows.bytes(), 64, "it starts at one bucket");
        let mut x = 0x2545_F491_4F6C_DD1Du64;
        let mut next = move || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        let mut grew_to = 0;
        for step in 0..40_000u64 {
            let r = next();
            let key = r % keys;
            match r >> 60 {
                0 if step % 97 == 0 => {
                    big.clear();
                    grows.clear();
                }
                0..=7 => assert_eq!(
                    grows.probe(key),
                    big.probe(key),
                    "{full} buckets, step {step}, key {key}"
                ),
                _ => {
                    let e = Entry {
                        lower: (r >> 20) as u8 as Value,
                        upper: 300,
                        draft: (r >> 30) as u32 % 4,
                        best: (r >> 40) as u32 % 300,
                        best_proves: r & 1 == 1,
                        work: (r >> 50) as u32 % 70,
                    };
                    big.store(key, e);
                    grows.store(key, e);
                }
            }
            grew_to = grew_to.max(grows.bytes());
        }
        for key in 0..keys {
            assert_eq!(grows.probe(key), big.probe(key), "{full} buckets, key {key} at the end");
        }
        assert_eq!(grew_to, big.bytes(), "{full} buckets: grown to the full size");
        assert_eq!(grows.clone().probe(keys / 2), big.probe(keys / 2));
    }
}

#[test]
fn a_growing_table_takes_the_memory_of_what_it_holds() {
    let mut t = FixedTable::try_growing(16).unwrap();
    assert_eq!(t.bytes(), 64);
    for k in 0..1_000u64 {
        t.store(k.wrapping_mul(0x9E37_79B9_7F4A_7C15), entry(k as Value, 3));
    }
    for k in 0..1_000u64 {
        assert_eq!(
            t.probe(k.wrapping_mul(0x9E37_79B9_7F4A_7C15)).map(|e| e.lower),
            Some(k as Value)
        );
    }
    assert_eq!(t.bytes(), GROWN_1000);
    assert!(t.bytes() < (16 << 20) / 64, "{} bytes for 1,000 entries", t.bytes());
    // A table of its full size at the start is the same table, made at once.
    assert_eq!(FixedTable::with_megabytes(16).bytes(), 16 << 20);
    assert!(FixedTable::try_growing(0).is_err());
}

/// The bytes a growing table reaches with 1,000 keys (pinned: the keys
/// and the hashing are fixed).
const GROWN_1000: usize = 32 << 10;
