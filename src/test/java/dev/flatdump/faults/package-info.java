/**
 * Fault tests: flatdump against a MongoDB that stops mid-export, a process killed with SIGKILL, a
 * full output disk and corrupted artifacts.
 */
package dev.flatdump.faults;
