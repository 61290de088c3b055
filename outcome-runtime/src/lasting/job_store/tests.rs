use std::task::{Context, Poll, Waker};

use super::*;

/// The memory store's futures are ready when made.
fn ready<T>(mut future: StoreFuture<'_, T>) -> Result<T, StoreError> {
    match future
        .as_mut()
        .poll(&mut Context::from_waker(Waker::noop()))
    {
        Poll::Ready(result) => result,
        Poll::Pending => panic!("the memory store answers at once"),
    }
}

fn job(runs_for: u64, keep: u64) -> NewJob {
    NewJob {
        tool: "work".to_owned(),
        owner: Owner::anyone(),
        runs_for: Duration::from_secs(runs_for),
        keep: Duration::from_secs(keep),
    }
}

fn answer() -> StoredAnswer {
    Ok(CallToolResult::success(Vec::new()))
}

/// What the store holds once the clock reads `secs` from `t0`, by id,
/// sorted; and how many entries wait in the expiry queue.
fn at(store: &MemoryStore, t0: Instant, secs: u64) -> (Vec<String>, usize) {
    let mut memory = store.memory.lock().unwrap();
    memory.sweep(t0 + Duration::from_secs(secs));
    let mut ids: Vec<String> = memory.jobs.keys().map(|id| id.to_string()).collect();
    ids.sort();
    (ids, memory.expiries.len())
}

#[test]
fn the_session_key_is_siphash_2_4_as_its_reference_computes_it() {
    // The reference vectors of SipHash-2-4 (the paper's appendix):
    // replicas of any release agree only if these hold.
    let (k0, k1) = (0x0706_0504_0302_0100, 0x0f0e_0d0c_0b0a_0908);
    assert_eq!(siphash24(k0, k1, &[]), 0x726f_db47_dd0e_0e31);
    let fifteen: Vec<u8> = (0..15).collect();
    assert_eq!(siphash24(k0, k1, &fifteen), 0xa129_ca61_49be_45e5);
}

#[test]
fn an_owner_keeps_a_key_of_a_fixed_size_whatever_the_session_id() {
    let huge = "s".repeat(256 << 10);
    let owner = Owner::session(&huge);
    let key = owner.session_key().unwrap();
    assert_eq!(key.len(), 32);
    assert!(format!("{owner:?}").len() < 200, "{owner:?}");
    // The key reads back as the same owner, which admits that id only.
    let read = Owner::from_session_key(&key).unwrap();
    assert!(read.admits(None, Some(huge.as_bytes())));
    assert!(!read.admits(None, Some(b"another")));
    assert!(!read.admits(None, None));
    assert!(Owner::from_session_key("not a key").is_none());
    assert!(Owner::from_session_key(&"g".repeat(32)).is_none());
    assert!(Owner::from_session_key("+0000000000000000000000000000000").is_none());
    assert!(Owner::anyone().admits(None, Some(b"any")));
}

#[test]
fn records_go_in_the_order_they_expire() {
    let store = MemoryStore::new();
    let t0 = Instant::now();
    // Expire at 30, 10 and 20 seconds (deadline plus keep).
    ready(store.start("a", job(20, 10))).unwrap();
    ready(store.start("b", job(5, 5))).unwrap();
    ready(store.start("c", job(10, 10))).unwrap();
    assert_eq!(
        at(&store, t0, 9),
        (vec!["a".into(), "b".into(), "c".into()], 3)
    );
    assert_eq!(at(&store, t0, 11), (vec!["a".into(), "c".into()], 2));
    assert_eq!(at(&store, t0, 21), (vec!["a".into()], 1));
    assert_eq!(at(&store, t0, 31), (vec![], 0));
}

#[test]
fn a_finished_job_goes_when_its_answers_keep_is_over_not_its_deadlines() {
    let store = MemoryStore::new();
    let t0 = Instant::now();
    ready(store.start("early", job(100, 100))).unwrap();
    ready(store.start("late", job(1, 1))).unwrap();
    assert!(ready(store.finish("early", answer(), Duration::from_secs(5))).unwrap());
    assert!(ready(store.finish("late", answer(), Duration::from_secs(50))).unwrap());
    assert!(!ready(store.finish("late", answer(), Duration::from_secs(1))).unwrap());
    // One entry per record: the running job's entry left with its state.
    assert_eq!(at(&store, t0, 0).1, 2);
    // Past the late job's deadline plus keep, its answer stays.
    assert_eq!(at(&store, t0, 3), (vec!["early".into(), "late".into()], 2));
    assert_eq!(at(&store, t0, 6), (vec!["late".into()], 1));
    let Some(StoredJob {
        state: JobState::Done(_),
        ..
    }) = ready(store.get("late")).unwrap()
    else {
        panic!("the late job's answer is kept");
    };
    assert_eq!(at(&store, t0, 51), (vec![], 0));
}

#[test]
fn a_forgotten_job_leaves_no_entry() {
    let store = MemoryStore::new();
    let t0 = Instant::now();
    ready(store.start("a", job(10, 10))).unwrap();
    ready(store.start("b", job(10, 10))).unwrap();
    ready(store.forget("a")).unwrap();
    ready(store.forget("unknown")).unwrap();
    assert_eq!(at(&store, t0, 0), (vec!["b".into()], 1));
    assert!(ready(store.get("a")).unwrap().is_none());
    assert!(!ready(store.finish("a", answer(), Duration::from_secs(1))).unwrap());
}

#[test]
fn a_restarted_id_is_one_record_with_the_new_bounds() {
    let store = MemoryStore::with_capacity(1);
    let t0 = Instant::now();
    ready(store.start("a", job(10, 10))).unwrap();
    assert!(ready(store.finish("a", answer(), Duration::from_secs(100))).unwrap());
    // A full store starts the id it holds again: it replaces its record.
    ready(store.start("a", job(1, 1))).unwrap();
    let Some(StoredJob {
        state: JobState::Running { overdue: false },
        ..
    }) = ready(store.get("a")).unwrap()
    else {
        panic!("the id runs again");
    };
    assert_eq!(at(&store, t0, 0), (vec!["a".into()], 1));
    assert_eq!(at(&store, t0, 3), (vec![], 0));
}

#[test]
fn past_its_capacity_the_store_refuses_a_job_until_a_record_goes() {
    let store = MemoryStore::with_capacity(2);
    let t0 = Instant::now();
    ready(store.start("a", job(1, 1))).unwrap();
    ready(store.start("b", job(10, 10))).unwrap();
    let refused = ready(store.start("c", job(10, 10))).unwrap_err();
    assert_eq!(
        refused.to_string(),
        "the job store in memory holds 2 jobs, as many as it may"
    );
    assert!(ready(store.get("c")).unwrap().is_none());
    ready(store.forget("b")).unwrap();
    ready(store.start("c", job(10, 10))).unwrap();
    // Once "a" expires, there is room again.
    assert_eq!(at(&store, t0, 3), (vec!["c".into()], 1));
    ready(store.start("d", job(10, 10))).unwrap();
    assert_eq!(store.held(), Some(2));
}

#[tokio::test]
async fn an_answer_nobody_polls_goes_when_its_keep_is_over() {
    let store = MemoryStore::new();
    ready(store.start("short", job(60, 60))).unwrap();
    ready(store.start("long", job(60, 60))).unwrap();
    let keep = Duration::from_millis(20);
    assert!(ready(store.finish("long", answer(), keep * 2)).unwrap());
    assert!(ready(store.finish("short", answer(), keep)).unwrap());
    tokio::time::sleep(keep * 5).await;
    // Untouched since: the store's own task dropped both answers, and
    // waits for the running jobs no more, there being none.
    let memory = store.memory.lock().unwrap();
    assert!(memory.jobs.is_empty());
    assert!(memory.expiries.is_empty());
    assert_eq!(memory.sweeper, None);
}

#[test]
fn many_jobs_started_and_finished_leave_as_many_records_as_entries() {
    let store = MemoryStore::new();
    let t0 = Instant::now();
    for round in 0..10_000u64 {
        let id = format!("j-{round:032x}");
        ready(store.start(&id, job(60, 60))).unwrap();
        assert!(ready(store.finish(&id, answer(), Duration::from_secs(1))).unwrap());
        // The clock moves a second every 50 jobs, and an answer is
        // kept for one: the store holds those of the last few seconds.
        let (held, queued) = at(&store, t0, round / 50);
        assert!(held.len() <= 150, "{} held", held.len());
        assert_eq!(held.len(), queued);
    }
    assert_eq!(at(&store, t0, 10_000 / 50 + 2), (vec![], 0));
}
