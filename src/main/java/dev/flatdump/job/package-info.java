/**
 * Spring Batch wiring only: {@code exportJob} and thin tasklets and ItemStreams around the
 * plain-Java stages, its job repository, and the launcher that runs, restarts and locks it.
 */
package dev.flatdump.job;
