/** {@code flatdump load}: Extended JSON files, one document per line, into a collection. */
package dev.flatdump.load;
