/** Sample data: a deterministic organization generator and a loader for Extended JSON files. */
package dev.flatdump.sample;
