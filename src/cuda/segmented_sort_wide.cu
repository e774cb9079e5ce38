// segmented_radix_sort instances of 64-bit keys (segmented_sort.cu: 32-bit keys).
#define SLUICE_SEGMENTED_SORT_WIDE 1
#include "segmented_sort.cu"
