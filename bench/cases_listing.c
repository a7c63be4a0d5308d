/*
 * Listing-level cases: the place for `hexoid verify` on whole files (line splitting,
 * --algo=auto, error reporting and the 1 MiB streaming buffer on top of the kernels).
 *
 * Still to come. The plan, so that the results stay comparable with the bulk cases:
 * names  verify/<listing>/<kind>/<kernel>  where <listing> is a listing made by the
 * installed git (`git rev-list --objects --all | cut -d' ' -f1` of a SHA-1 and a SHA-256
 * repository, and a synthetic 16M-line one from inputs_text()), each kernel forced with
 * hexoid_set_kernel(), with `cut -c1-40 | xxd -r -p` style peers as baselines and items
 * counted as lines. They need an entry point below the command line (the verify loop of
 * cli/ as a library function) to call without spawning a process per iteration.
 * SPDX-License-Identifier: MIT
 */
#include "cases.h"

void register_listing_cases(void)
{
}
