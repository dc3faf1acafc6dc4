import { useState } from "react";
import { useNavigation } from "react-router";

/**
 * A form's answer, shown once the page it describes has been read again.
 *
 * The router hands a page its action's answer as soon as the action returns, while the page's
 * data is still being read again: for that moment the answer ("Ticket R-1002 is now Ready for
 * pickup") stands beside forms of the stage before, and a press there acts on a page that is no
 * longer true. This keeps the answer shown before until the navigation is over, so the answer
 * and the page it stands on change together. The pressed button shows the wait meanwhile.
 */
export function usePageAnswer<T>(actionData: T): T {
  const navigation = useNavigation();
  const [shown, setShown] = useState(actionData);
  if (navigation.state === "idle" && shown !== actionData) {
    setShown(actionData);
    return actionData;
  }
  return shown;
}
