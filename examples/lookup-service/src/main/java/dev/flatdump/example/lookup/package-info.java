/** An example HTTP service that answers lookups by key from the current flatdump export. */
package dev.flatdump.example.lookup;
