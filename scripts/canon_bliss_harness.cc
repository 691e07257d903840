// Thin timing harness for bliss (Junttila & Kaski), used by
// benches/canon_compare.rs through scripts/canon_bench.sh.
//
// Reads graphs from the file named by argv[1] in the format
//   n m directed
//   colour_0 ... colour_{n-1}
//   m lines "from to"
// repeated, then canonically labels all of them argv[2] times (computing
// the labelling with canonical_form() and the relabelled graph with
// permute()), and prints the median time per graph in nanoseconds. A
// warm-up round slower than half a second is followed by one timed round.
#include <bliss/graph.hh>
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <vector>

int main(int argc, char **argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: %s GRAPHS REPETITIONS\n", argv[0]);
    return 2;
  }
  std::FILE *in = std::fopen(argv[1], "r");
  if (!in) {
    std::perror(argv[1]);
    return 2;
  }
  std::vector<bliss::AbstractGraph *> graphs;
  unsigned n, m, directed;
  while (std::fscanf(in, "%u %u %u", &n, &m, &directed) == 3) {
    bliss::AbstractGraph *g;
    if (directed)
      g = new bliss::Digraph(0);
    else
      g = new bliss::Graph(0);
    for (unsigned v = 0; v < n; v++) {
      unsigned c;
      if (std::fscanf(in, "%u", &c) != 1) return 2;
      g->add_vertex(c);
    }
    for (unsigned e = 0; e < m; e++) {
      unsigned a, b;
      if (std::fscanf(in, "%u %u", &a, &b) != 2) return 2;
      g->add_edge(a, b);
    }
    graphs.push_back(g);
  }
  int reps = std::atoi(argv[2]);
  std::vector<double> times;
  for (int r = 0; r < reps + 1; r++) {
    auto start = std::chrono::steady_clock::now();
    for (auto *g : graphs) {
      bliss::Stats stats;
      const unsigned *lab = g->canonical_form(stats, nullptr, nullptr);
      bliss::AbstractGraph *c = g->permute(lab);
      delete c;
    }
    auto end = std::chrono::steady_clock::now();
    double ns = std::chrono::duration<double, std::nano>(end - start).count();
    if (r == 0) {  // the first round warms up; a slow one means one more
      if (ns > 5e8) reps = 1;
      continue;
    }
    times.push_back(ns / graphs.size());
  }
  std::sort(times.begin(), times.end());
  std::printf("%.1f\n", times[times.size() / 2]);
  return 0;
}
