/* SPDX-License-Identifier: GPL-3.0-or-later */
/* A deliberate data race between two OpenMP threads. Built and run only in the ThreadSanitizer build
 * (-DIMPACTFIT_TSAN=ON): the test passes when TSan reports the race, which shows that the
 * sanitizer, the OpenMP runtime and its Archer tool are set up so that the clean runs of the
 * sweep tests under TSan mean something. */
#include <omp.h>
#include <stdio.h>

int main(void) {
  long counter = 0;
#pragma omp parallel num_threads(2)
  for (int i = 0; i < 100000; i++)
    counter++; /* the race */
  printf("counter %ld\n", counter);
  return 0;
}
