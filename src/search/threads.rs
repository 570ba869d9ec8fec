//! Lazy SMP: with `Threads` above 1 the searcher runs helpers, searchers of their own (history,
//! killers, stack) over the same hash table, which search the same position without a clock
//! until the main search ends. What they store in the table guides and cuts the main search;
//! only the main search reports and answers.

use super::*;

impl<G: Game> Searcher<G> {
    /// The number of search threads, this one included.
    pub fn threads(&self) -> usize {
        1 + self.helpers.len()
    }

    pub fn set_threads(&mut self, n: usize) {
        let n = n.clamp(1, MAX_THREADS);
        self.helpers.truncate(n - 1);
        while self.helpers.len() < n - 1 {
            let mut h = Searcher::with_table(Arc::clone(&self.tt));
            h.helper = true;
            h.crew_nodes = Arc::clone(&self.crew_nodes);
            // The network was checked when this searcher took it.
            let _ = h.set_network(self.network().cloned());
            self.helpers.push(h);
        }
    }

    /// Searches the current position of `record` and returns the best move, or none when the
    /// game is over. `report` receives one `Info` per completed iteration.
    pub fn think(
        &mut self,
        record: &Record<G>,
        limits: Limits,
        control: Arc<Control>,
        report: &mut dyn FnMut(&Info<G::Move>),
    ) -> SearchResult<G::Move> {
        self.tt.new_search();
        self.crew_nodes.store(0, Ordering::Relaxed);
        self.limits = limits;
        self.control = control;
        if self.helpers.is_empty() {
            return self.search(record, report);
        }
        // The helpers search without a clock or a node limit, until the main search ends.
        let crew = Control::new(false);
        let crew_limits = Limits { nodes: None, budget: None, mate: None, infinite: true, ..limits };
        let mut helpers = std::mem::take(&mut self.helpers);
        let result = std::thread::scope(|scope| {
            for h in helpers.iter_mut() {
                h.limits = crew_limits;
                h.control = Arc::clone(&crew);
                // A helper that cannot get a thread leaves the work to the others.
                let _ = std::thread::Builder::new().name("helper".into()).stack_size(SEARCH_STACK).spawn_scoped(
                    scope,
                    move || {
                        h.search(record, &mut |_| {});
                    },
                );
            }
            let r = self.search(record, report);
            crew.stop();
            r
        });
        self.helpers = helpers;
        SearchResult { nodes: result.nodes + self.crew_nodes.load(Ordering::Relaxed), ..result }
    }
}
