/** flatdump's data model (organizations and attributes) and its one exception family. */
package dev.flatdump;
