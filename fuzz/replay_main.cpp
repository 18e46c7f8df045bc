// SPDX-License-Identifier: GPL-3.0-or-later
// Replays inputs through a fuzz target's LLVMFuzzerTestOneInput in an ordinary build (no
// libFuzzer): `replay_<target> DIR...` feeds every file under the directories, so the seed
// corpus and every input that once failed (fuzz/regressions/<target>/) are checked by ctest on
// every machine. A defect aborts, as under the fuzzer; success prints how many were replayed.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size);

int main(int argc, char** argv) {
    std::vector<std::filesystem::path> files;
    for (int i = 1; i < argc; ++i) {
        if (!std::filesystem::exists(argv[i])) continue;  // no regressions yet for a target
        for (const auto& e : std::filesystem::recursive_directory_iterator(argv[i]))
            if (e.is_regular_file()) files.push_back(e.path());
    }
    std::sort(files.begin(), files.end());
    for (const auto& f : files) {
        std::ifstream in(f, std::ios::binary);
        const std::vector<char> bytes((std::istreambuf_iterator<char>(in)),
                                      std::istreambuf_iterator<char>());
        std::fprintf(stderr, "replay %s (%zu bytes)\n", f.string().c_str(), bytes.size());
        LLVMFuzzerTestOneInput(reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size());
    }
    std::printf("replayed %zu inputs without a defect\n", files.size());
    return files.empty() ? 1 : 0;  // no input at all means the corpus went missing
}
