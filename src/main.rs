//! The `chariot` binary: parses the command line, runs it (`cli`), and turns the outcome into
//! an exit code.

mod cli;

use clap::Parser;
use std::process::ExitCode;

fn main() -> ExitCode {
    match cli::run(cli::Cli::parse()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("chariot: error: {message}");
            ExitCode::FAILURE
        }
    }
}
