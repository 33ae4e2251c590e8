// simdjson 3 (libsimdjson-dev) on the same inputs as main.swift: every line parsed into simdjson's DOM (a
// tape, as JSONTape builds one) with one reused parser; the fastest of the passes, printed as the same
// Markdown rows. Built and run by scripts/bench-json.sh.
//
//   simdjson-lines LINES.ndjson PAYLOADS.ndjson [PASSES]
#include <simdjson.h>

#include <chrono>
#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

static std::vector<simdjson::padded_string> lines(const char *path, size_t &bytes) {
    std::ifstream in(path);
    std::vector<simdjson::padded_string> out;
    std::string line;
    bytes = 0;
    while (std::getline(in, line)) {
        if (line.empty()) continue;
        bytes += line.size();
        out.emplace_back(line);
    }
    return out;
}

static void measure(const char *input, const std::vector<simdjson::padded_string> &all, size_t bytes, int passes) {
    simdjson::dom::parser parser;
    double best = 1e300;
    size_t refused = 0, elements = 0;
    for (int pass = 0; pass < passes; pass++) {
        size_t r = 0;
        auto start = std::chrono::steady_clock::now();
        for (const auto &line : all) {
            simdjson::dom::element doc;
            if (parser.parse(line).get(doc) != simdjson::SUCCESS) { r++; continue; }
            elements += doc.is_object();
        }
        double ns = std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - start).count();
        if (pass == 0) refused = r;
        if (ns < best) best = ns;
    }
    std::printf("| %s | simdjson %s (dom::parser) | %.0f | %.0f | %zu |\n", input, SIMDJSON_STRINGIFY(SIMDJSON_VERSION), best / all.size(),
                bytes / best * 1000, refused);
    if (elements == 0) std::printf("(no objects)\n");
}

int main(int argc, char **argv) {
    if (argc < 3) { std::fprintf(stderr, "usage: simdjson-lines LINES.ndjson PAYLOADS.ndjson [PASSES]\n"); return 64; }
    int passes = argc > 3 ? std::atoi(argv[3]) : 20;
    size_t lineBytes = 0, payloadBytes = 0;
    auto recording = lines(argv[1], lineBytes), payloads = lines(argv[2], payloadBytes);
    measure("recording lines", recording, lineBytes, passes);
    measure("push payloads", payloads, payloadBytes, passes);
    std::printf("simdjson implementation: %s\n", simdjson::get_active_implementation()->name().c_str());
    return 0;
}
