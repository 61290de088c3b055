//! What one `get` and one `start` cost on the in-memory job store as it
//! fills: the same operations on a store holding 1,000, 10,000 and 100,000
//! running jobs, so that the 100,000 / 1,000 ratio shows whether the cost
//! grows with the number of jobs held; and, as the floor, a lookup in a
//! bare map of as many ids, which grows too once the map outgrows the
//! processor's caches.
//!
//! `cargo bench -p outcome-benches --bench memory_store`

use std::collections::HashMap;
use std::hint::black_box;
use std::path::PathBuf;
use std::task::{Context, Poll, Waker};
use std::time::{Duration, Instant};

use criterion::{BenchmarkId, Criterion};
use outcome_runtime::job_store::{JobStore, MemoryStore, NewJob, Owner, StoreFuture};

/// The sizes measured.
const SIZES: [usize; 3] = [1_000, 10_000, 100_000];

/// Jobs started per batch in the `start` bench before they are forgotten
/// again, so that the store stays within this many of its size.
const BATCH: usize = 1_000;

/// The memory store answers at once: its futures are ready when made.
fn ready<T>(mut future: StoreFuture<'_, T>) -> T {
    match future
        .as_mut()
        .poll(&mut Context::from_waker(Waker::noop()))
    {
        Poll::Ready(result) => result.expect("the memory store does not fail"),
        Poll::Pending => unreachable!("the memory store answers at once"),
    }
}

fn id(n: usize) -> String {
    format!("j-{n:032x}")
}

fn job() -> NewJob {
    NewJob {
        tool: "work".to_owned(),
        owner: Owner::anyone(),
        runs_for: Duration::from_secs(3600),
        keep: Duration::from_secs(300),
    }
}

/// A store holding `size` running jobs, with room for a batch more.
fn filled(size: usize) -> MemoryStore {
    let store = MemoryStore::with_capacity(size + BATCH);
    for n in 0..size {
        ready(store.start(&id(n), job()));
    }
    store
}

fn main() {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("criterion");
    let mut c = Criterion::default()
        .output_directory(&dir)
        .sample_size(20)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(3))
        .configure_from_args();
    for size in SIZES {
        let store = filled(size);
        let ids: Vec<String> = (0..size).map(id).collect();
        let mut group = c.benchmark_group("memory_store");
        // A poll of a job the store holds, a different one each time.
        let mut next = 0;
        group.bench_with_input(BenchmarkId::new("get", size), &size, |b, _| {
            b.iter(|| {
                next = (next + 7_919) % size;
                black_box(ready(store.get(black_box(&ids[next]))))
            })
        });
        // A new job, timed alone; the jobs of a batch are forgotten
        // between batches, untimed.
        let fresh: Vec<String> = (size..size + BATCH).map(id).collect();
        group.bench_with_input(BenchmarkId::new("start", size), &size, |b, _| {
            b.iter_custom(|iters| {
                let mut took = Duration::ZERO;
                let mut left = iters as usize;
                while left > 0 {
                    let batch = left.min(BATCH);
                    let started = Instant::now();
                    for id in &fresh[..batch] {
                        ready(store.start(black_box(id), job()));
                    }
                    took += started.elapsed();
                    for id in &fresh[..batch] {
                        ready(store.forget(id));
                    }
                    left -= batch;
                }
                took
            })
        });
        // The floor: a lookup in a bare map of as many jobs' ids and tool
        // names, a different one each time. Past the processor's caches a
        // lookup costs more whatever the map holds: this shows how much.
        let bare: HashMap<String, String> = ids
            .iter()
            .map(|id| (id.clone(), "work".to_owned()))
            .collect();
        group.bench_with_input(BenchmarkId::new("bare_map_get", size), &size, |b, _| {
            b.iter(|| {
                next = (next + 7_919) % size;
                black_box(bare.get(black_box(&ids[next])).cloned())
            })
        });
        group.finish();
        assert_eq!(store.held(), Some(size));
    }
    c.final_summary();
}
