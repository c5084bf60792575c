// The GitHub Actions workflows the DocC articles give readers to copy. Swift
// cannot check a workflow, but actionlint can, and .ci/run runs it on them
// beside .github/workflows: an action whose runtime GitHub has deprecated, or
// a syntax error, fails CI here instead of in a reader's repository.
//
// This file is the one place that finds them, by the articles' marker rule
// (DocumentationExampleTests): a ```yaml block marked
// `<!-- workflow: NAME.yml -->`, and every ```yaml block must be marked.
// When PATCHBAY_WORKFLOW_SNIPPETS_DIR names a folder, each is written there
// as ARTICLE.md/NAME.yml, after blank lines that put its text on the
// article's own lines, so actionlint's `file:line` is the article's.
import Foundation
import Testing

@Suite struct DocumentationWorkflowTests {
    /// The folder .ci/run asks the workflows to be written to, for actionlint.
    static let snippetsVariable = "PATCHBAY_WORKFLOW_SNIPPETS_DIR"

    @Test(arguments: Docs.articles)
    func everyWorkflowExampleIsMarkedAndWritten(article: String) throws {
        let text = try String(contentsOf: Docs.article(article), encoding: .utf8)
        let fences = text.components(separatedBy: "\n").filter {
            ["```yaml", "```yml"].contains($0.trimmingCharacters(in: .whitespaces))
        }
        let workflows = try markedBlocks(in: Docs.article(article)).filter { $0.label.hasPrefix("workflow: ") }
        #expect(workflows.count == fences.count, "\(article): a workflow without a marker is linted by nothing")
        for block in workflows {
            #expect(["yaml", "yml"].contains(block.language), "\(article):\(block.line): '\(block.label)' marks a \(block.language) block")
        }
        guard let folder = ProcessInfo.processInfo.environment[Self.snippetsVariable], !workflows.isEmpty else { return }
        let articleFolder = URL(fileURLWithPath: folder).appendingPathComponent(article)
        try FileManager.default.createDirectory(at: articleFolder, withIntermediateDirectories: true)
        for block in workflows {
            let name = String(block.label.dropFirst("workflow: ".count))
            // A plain file name, so the file lands in the article's folder and actionlint reads it as YAML.
            try #require(name.hasSuffix(".yml") && !name.contains("/"), "\(article): '\(name)' is not a NAME.yml")
            let padded = String(repeating: "\n", count: block.line - 1) + block.text
            // Not overwriting: two blocks of one name would lint only the last.
            try Data(padded.utf8).write(to: articleFolder.appendingPathComponent(name), options: .withoutOverwriting)
        }
    }

    /// The extraction finds the CI article's workflow, so an empty folder
    /// cannot pass the lint for want of anything to lint.
    @Test func theCIArticlesWorkflowIsFound() throws {
        let workflows = try Docs.blocks("workflow", in: "CheckingManifestsInCI.md")
        let workflow = try #require(workflows["manifests.yml"])
        #expect(workflow.contains("patchbay check --format github"))
    }
}
