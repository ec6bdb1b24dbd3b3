/**
 * The {@code flatdump} command line: parses options, runs one command, maps outcomes to exit codes.
 */
package dev.flatdump.cli;
